import Diagnostics
import Foundation
import Testing
@testable import Server

@Suite("Site server: static serving")
struct StaticServingTests {
    @Test("GET / serves index.html as UTF-8 HTML with the live script added")
    func frontPage() async throws {
        let server = try await ServerFixture.start()
        let response = try await server.http.request("GET", "/")
        #expect(response.status == 200)
        #expect(response.header("content-type") == "text/html; charset=utf-8")
        #expect(response.text.contains("front page"))
        #expect(response.text.contains("<script src=\"/_marsgen/live.js\" data-marsgen-live data-home=\"/\" defer></script></head>"))
        #expect(Int(response.header("content-length") ?? "") == response.body.count)
        // Never on disk.
        #expect(!String(decoding: server.file("index.html"), as: UTF8.self).contains("marsgen-live"))
    }

    @Test("without live updates, pages are served byte for byte")
    func noLive() async throws {
        let server = try await ServerFixture.start(live: nil)
        let response = try await server.http.request("GET", "/sol/452/")
        #expect(response.body == server.file("sol/452/index.html"))
        #expect(try await server.http.request("GET", "/_marsgen/live.js").status == 404)
    }

    @Test("HEAD answers GET's headers with no body")
    func head() async throws {
        let server = try await ServerFixture.start()
        let get = try await server.http.request("GET", "/")
        let head = try await server.http.request("HEAD", "/")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("content-length") == get.header("content-length"))
        #expect(head.header("etag") == get.header("etag"))
        let css = try await server.http.request("HEAD", "/theme/marsgen.css")
        #expect(css.header("content-length") == String(server.file("theme/marsgen.css").count))
    }

    @Test("a folder without its trailing slash redirects to it; with it, its index.html is served")
    func folderRedirect() async throws {
        let server = try await ServerFixture.start()
        let redirect = try await server.http.request("GET", "/sol/452?x=1")
        #expect(redirect.status == 301)
        #expect(redirect.header("location") == "/sol/452/?x=1")
        let page = try await server.http.request("GET", "/sol/452/")
        #expect(page.status == 200)
        #expect(page.text.contains("sol 452"))
        let encoded = try await server.http.request("GET", "/space%20name/page.html")
        #expect(encoded.status == 200)
    }

    @Test("a missing page gets the site's 404.html with status 404, for GET and HEAD")
    func notFound() async throws {
        let server = try await ServerFixture.start()
        let response = try await server.http.request("GET", "/journal/no-such-entry/")
        #expect(response.status == 404)
        #expect(response.text.contains("our own 404 page"))
        #expect(response.header("content-type") == "text/html; charset=utf-8")
        let head = try await server.http.request("HEAD", "/nothing.css")
        #expect(head.status == 404)
        #expect(head.body.isEmpty)
    }

    @Test("MIME types", arguments: [
        ("/theme/marsgen.css", "text/css; charset=utf-8"),
        ("/feed.xml", ServerFixture.atomType),
        ("/sitemap.xml", "application/xml; charset=utf-8"),
        ("/theme/favicon.svg", "image/svg+xml"),
        ("/theme/bytes.png", "image/png"),
        ("/data/sample.json", "application/json"),
        ("/_marsgen/live.js", "text/javascript; charset=utf-8"),
    ])
    func mimeTypes(path: String, type: String) async throws {
        let server = try await ServerFixture.start()
        let response = try await server.http.request("GET", path)
        #expect(response.status == 200)
        #expect(response.header("content-type") == type)
    }

    @Test("a file name given a media type is sent with it, in any folder, under any base path, on 200 and 304 alike; without one, its extension decides")
    func configuredMediaType() async throws {
        let server = try await ServerFixture.start(basePath: "/log/")
        let feed = try await server.http.request("GET", "/log/feed.xml")
        #expect(feed.status == 200 && feed.header("content-type") == ServerFixture.atomType)
        let tagFeed = try await server.http.request("GET", "/log/tags/eva/feed.xml")
        #expect(tagFeed.status == 200 && tagFeed.header("content-type") == ServerFixture.atomType)
        #expect(try await server.http.request("GET", "/log/sitemap.xml").header("content-type") == "application/xml; charset=utf-8")
        let again = try await server.http.request("GET", "/log/feed.xml", headers: ["If-None-Match": try #require(feed.header("etag"))])
        #expect(again.status == 304 && again.header("content-type") == ServerFixture.atomType)
        #expect(try await server.http.request("HEAD", "/log/feed.xml").header("content-type") == ServerFixture.atomType)
        let plain = try await ServerFixture.start(mediaTypes: [:])
        #expect(try await plain.http.request("GET", "/feed.xml").header("content-type") == "application/xml; charset=utf-8")
    }

    @Test("ETag and Last-Modified make 304s; a changed file gets a new ETag even within the same second")
    func conditionalRequests() async throws {
        let server = try await ServerFixture.start()
        let first = try await server.http.request("GET", "/theme/marsgen.css")
        let etag = try #require(first.header("etag"))
        let modified = try #require(first.header("last-modified"))
        let byTag = try await server.http.request("GET", "/theme/marsgen.css", headers: ["If-None-Match": etag])
        #expect(byTag.status == 304)
        #expect(byTag.body.isEmpty)
        let byDate = try await server.http.request("GET", "/theme/marsgen.css", headers: ["If-Modified-Since": modified])
        #expect(byDate.status == 304)
        // Same size, new bytes, same second: a new ETag all the same.
        try Data("body { color: #e4efe9; background: #0b0f14; }\n".utf8).write(to: URL(fileURLWithPath: server.root + "/theme/marsgen.css"))
        let changed = try await server.http.request("GET", "/theme/marsgen.css", headers: ["If-None-Match": etag])
        #expect(changed.status == 200)
        #expect(changed.header("etag") != etag)
        #expect(changed.text.contains("#e4efe9"))
        let page = try await server.http.request("GET", "/")
        let pageAgain = try await server.http.request("GET", "/", headers: ["If-None-Match": try #require(page.header("etag"))])
        #expect(pageAgain.status == 304)
    }

    @Test("Range requests get 206 and exactly the bytes asked for")
    func ranges() async throws {
        let server = try await ServerFixture.start()
        let response = try await server.http.request("GET", "/theme/bytes.png", headers: ["Range": "bytes=10-19"])
        #expect(response.status == 206)
        #expect(response.header("content-range") == "bytes 10-19/256")
        #expect(response.body == Array(10..<20).map { UInt8($0) })
        let open = try await server.http.request("GET", "/theme/bytes.png", headers: ["Range": "bytes=250-"])
        #expect(open.body == Array(250..<256).map { UInt8($0) })
        #expect(try await server.http.request("GET", "/theme/bytes.png").header("accept-ranges") == "bytes")
        // The last 6 bytes, as HTTP means it.
        let suffix = try await server.http.request("GET", "/theme/bytes.png", headers: ["Range": "bytes=-6"])
        #expect(suffix.status == 206)
        #expect(suffix.header("content-range") == "bytes 250-255/256")
        #expect(suffix.body == Array(250..<256).map { UInt8($0) })
        let past = try await server.http.request("GET", "/theme/bytes.png", headers: ["Range": "bytes=300-400"])
        #expect(past.status == 416)
        #expect(past.header("content-range") == "bytes */256")
        let several = try await server.http.request("GET", "/theme/bytes.png", headers: ["Range": "bytes=0-1,5-6"])
        #expect(several.status == 200)
        #expect(several.body.count == 256)
    }

    @Test("a Range request for a page gets the whole page, so the live script is never cut")
    func rangeOnHTML() async throws {
        let server = try await ServerFixture.start()
        let response = try await server.http.request("GET", "/", headers: ["Range": "bytes=0-9"])
        #expect(response.status == 200)
        #expect(response.text.contains("</html>"))
    }

    @Test("nothing but GET and HEAD")
    func methods() async throws {
        let server = try await ServerFixture.start()
        for method in ["POST", "PUT", "DELETE", "PATCH"] {
            let response = try await server.http.request(method, "/index.html")
            #expect(response.status == 405)
            #expect(response.header("allow") == "GET, HEAD")
        }
    }

    @Test("a link within the folder is served")
    func symlinkInside() async throws {
        let server = try await ServerFixture.start()
        let response = try await server.http.request("GET", "/alias.css")
        #expect(response.status == 200)
        #expect(response.body == server.file("theme/marsgen.css"))
    }
}

@Suite("Site server: nothing outside the folder")
struct ContainmentTests {
    @Test("traversal attempts get 404 and never the secret", arguments: [
        "/../secret.txt",
        "/../../../../etc/passwd",
        "/%2e%2e/secret.txt",
        "/%2E%2E/secret.txt",
        "/sol/%2e%2e/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "/%2e%2e%2fsecret.txt",
        "/%252e%252e/secret.txt",
        "/%252e%252e%252fsecret.txt",
        "/..\\secret.txt",
        "/%5c..%5csecret.txt",
        "/sol\\..\\..\\secret.txt",
        "/index.html%00.css",
        "/%00",
        "/leak.txt",
        "/outside/secret.txt",
        "/outside/",
        "/outside",
        "/theme/../../secret.txt",
        "//../secret.txt",
    ])
    func traversal(target: String) async throws {
        let server = try await ServerFixture.start()
        let response = try await server.http.request("GET", target)
        #expect(response.status == 404)
        #expect(!response.text.contains(ServerFixture.secret))
        #expect(!response.text.contains("root:x:0"))
        let head = try await server.http.request("HEAD", target)
        #expect(head.status == 404)
    }
}

@Suite("Site server: what it remembers between requests")
struct ServedFileMemoryTests {
    @Test("a page rewritten as a build does (renamed into place) is served new, with the script, at once")
    func pageRewritten() async throws {
        let server = try await ServerFixture.start()
        let first = try await server.http.request("GET", "/sol/452/")
        #expect(first.text.contains("sol 452"))
        let staged = server.root + "/sol/452/.index.html.new"
        try Data("<!DOCTYPE html><html><head><title>Sol 452</title></head><body>sol 452, rewritten</body></html>".utf8)
            .write(to: URL(fileURLWithPath: staged))
        #expect(rename(staged, server.root + "/sol/452/index.html") == 0)
        let second = try await server.http.request("GET", "/sol/452/")
        #expect(second.text.contains("sol 452, rewritten"))
        #expect(second.text.contains("data-marsgen-live"))
        #expect(Int(second.header("content-length") ?? "") == second.body.count)
        #expect(second.header("etag") != first.header("etag"))
    }

    @Test("a page edited in place, same size and second, is served new")
    func pageEditedInPlace() async throws {
        let server = try await ServerFixture.start()
        #expect(try await server.http.request("GET", "/").text.contains("front page"))
        let path = server.root + "/index.html"
        let text = String(decoding: server.file("index.html"), as: UTF8.self).replacingOccurrences(of: "front page", with: "FRONT PAGE")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try await server.http.request("GET", "/").text.contains("FRONT PAGE"))
    }

    @Test("a path served once, then swapped for a link out of the folder, gets 404")
    func swappedForLinkOut() async throws {
        let server = try await ServerFixture.start()
        #expect(try await server.http.request("GET", "/data/sample.json").status == 200)
        #expect(try await server.http.request("GET", "/sol/452/").status == 200)
        let files = FileManager.default
        try files.removeItem(atPath: server.root + "/data")
        try files.createSymbolicLink(atPath: server.root + "/data", withDestinationPath: server.directory)
        try Data(ServerFixture.secret.utf8).write(to: URL(fileURLWithPath: server.directory + "/sample.json"))
        let leaked = try await server.http.request("GET", "/data/sample.json")
        #expect(leaked.status == 404)
        #expect(!leaked.text.contains(ServerFixture.secret))
        try files.removeItem(atPath: server.root + "/sol/452")
        try files.createSymbolicLink(atPath: server.root + "/sol/452", withDestinationPath: server.directory)
        try Data("<html><head></head><body>\(ServerFixture.secret)</body></html>".utf8)
            .write(to: URL(fileURLWithPath: server.directory + "/index.html"))
        let page = try await server.http.request("GET", "/sol/452/")
        #expect(page.status == 404)
        #expect(!page.text.contains(ServerFixture.secret))
    }
}

@Suite("Site server: base path and errors")
struct BasePathTests {
    @Test("a site under /log/ is served there, and / redirects to it")
    func basePath() async throws {
        let server = try await ServerFixture.start(basePath: "/log/")
        let root = try await server.http.request("GET", "/")
        #expect(root.status == 301)
        #expect(root.header("location") == "/log/")
        let front = try await server.http.request("GET", "/log/")
        #expect(front.status == 200)
        #expect(front.text.contains("data-home=\"/log/\""))
        let redirect = try await server.http.request("GET", "/log/sol/452")
        #expect(redirect.header("location") == "/log/sol/452/")
        #expect(try await server.http.request("GET", "/log/sol/452/").text.contains("sol 452"))
        let outside = try await server.http.request("GET", "/sol/452/")
        #expect(outside.status == 404)
        #expect(outside.text.contains("our own 404 page"))
    }

    @Test("a site moved to another base path (base_url changed) is served there at once, with its live script")
    func moveSite() async throws {
        let server = try await ServerFixture.start(basePath: "/log/")
        #expect(try await server.http.request("GET", "/log/").status == 200)
        #expect(server.server.moveSite(to: "/"))
        #expect(!server.server.moveSite(to: "/"))
        let front = try await server.http.request("GET", "/")
        #expect(front.status == 200)
        #expect(front.text.contains("front page") && front.text.contains("data-home=\"/\""))
        #expect(try await server.http.request("GET", "/log/").status == 404)
        #expect(server.server.moveSite(to: "journal"))
        let moved = try await server.http.request("GET", "/")
        #expect(moved.status == 301 && moved.header("location") == "/journal/")
    }

    @Test("a page served before the site moved is not 304 Not Modified after it, though its file did not change")
    func moveSiteRevalidation() async throws {
        // Two base paths of one length: the page served differs only in the live script's data-home.
        let server = try await ServerFixture.start(basePath: "/aa/")
        let before = try await server.http.request("GET", "/aa/")
        let etag = try #require(before.header("etag"))
        let modified = try #require(before.header("last-modified"))
        #expect(try await server.http.request("GET", "/aa/", headers: ["If-None-Match": etag]).status == 304)
        // HTTP dates count whole seconds: the move must fall in a later one to show there.
        try await Task.sleep(for: .milliseconds(1_100))
        #expect(server.server.moveSite(to: "/bb/"))
        let after = try await server.http.request("GET", "/bb/", headers: ["If-None-Match": etag])
        #expect(after.status == 200)
        #expect(after.text.contains("data-home=\"/bb/\""))
        #expect(after.header("etag") != etag)
        #expect(try await server.http.request("GET", "/bb/", headers: ["If-Modified-Since": modified]).status == 200)
        // Files that are not transformed keep their validators.
        let style = try await server.http.request("GET", "/bb/theme/marsgen.css")
        #expect(try await server.http.request("GET", "/bb/theme/marsgen.css",
                                              headers: ["If-None-Match": try #require(style.header("etag"))]).status == 304)
    }

    @Test("a port in use is a clear error naming the port, from checking the address as from serving")
    func portInUse() async throws {
        let first = try await ServerFixture.start()
        let second = SiteServer(configuration: .init(root: first.root, port: first.port))
        for check in [false, true] {
            do {
                if check { try await second.checkAddress() } else { try await second.run { _ in } }
                Issue.record("the second server \(check ? "listened" : "started")")
            } catch let diagnostic as Diagnostic {
                #expect(diagnostic.message == "port \(first.port) is already in use (127.0.0.1:\(first.port))")
                #expect(diagnostic.hint?.contains("--port 0") == true)
            }
        }
    }

    @Test("checking a free address lets it go: a server can listen there next")
    func checkedAddressIsFree() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("marsgen-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        // A port known free a moment ago: one a server was given for port 0 and has closed.
        let probe = try await ServerFixture.start()
        let port = probe.port
        await probe.stop()
        let server = SiteServer(configuration: .init(root: root.path, port: port))
        try await server.checkAddress()
        try await server.checkAddress()
        try await withThrowingTaskGroup(of: Void.self) { group in
            let ready = AsyncStream<Int>.makeStream()
            group.addTask { try await server.run { ready.continuation.yield($0) } }
            var iterator = ready.stream.makeAsyncIterator()
            #expect(await iterator.next() == port)
            group.cancelAll()
        }
    }

    @Test("a host that is no address nor a name that resolves is a clear error naming it", arguments: ["256.1.1.1", "nosuchhost.invalid"])
    func unknownHost(_ host: String) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("marsgen-unknown-host-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let server = SiteServer(configuration: .init(root: root.path, host: host, port: 0))
        for check in [false, true] {
            do {
                if check { try await server.checkAddress() } else { try await server.run { _ in } }
                Issue.record("the server \(check ? "listened" : "started") on \(host)")
            } catch let diagnostic as Diagnostic {
                #expect(diagnostic.message == "cannot listen on \(host): no such address or host name")
                #expect(diagnostic.hint?.contains("--host 127.0.0.1") == true)
            }
        }
    }
}

@Suite("Live updates")
struct LiveUpdateTests {
    @Test("a page's event stream says hello, then carries each published build")
    func eventStream() async throws {
        let server = try await ServerFixture.start()
        let live = try #require(server.live)
        async let text = server.http.stream("/_marsgen/events", until: "event: build")
        // Publish once the page is listening.
        for _ in 0..<200 where live.subscriberCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
        live.publish(SiteUpdate(writtenFiles: ["index.html", "sol/452/index.html", "theme/marsgen.css"], deletedFiles: ["journal/old/index.html"]))
        let received = try await text
        #expect(received.contains("HTTP/1.1 200"))
        #expect(received.lowercased().contains("content-type: text/event-stream"))
        #expect(received.contains("event: hello\ndata: {\"generation\":"))
        #expect(received.contains("event: build\ndata: {\"deleted\":[\"/journal/old/\"],\"generation\":"))
        #expect(received.contains("\"written\":[\"/\",\"/sol/452/\",\"/theme/marsgen.css\"]"))
    }

    @Test("a page that connects while the site is broken is told the error at once")
    func errorOnConnect() async throws {
        let server = try await ServerFixture.start()
        let live = try #require(server.live)
        live.publish(SiteUpdate(failure: .init(location: "templates/layout.mustache:3:1", message: "unclosed section", hint: nil)))
        let text = try await server.http.stream("/_marsgen/events", until: "event: hello")
        #expect(text.contains("\"failure\":{\"location\":\"templates/layout.mustache:3:1\",\"message\":\"unclosed section\"}"))
    }

    @Test("output paths become the addresses pages are opened at", arguments: [
        ("index.html", "/", "/"), ("sol/12/index.html", "/", "/sol/12/"), ("feed.xml", "/", "/feed.xml"),
        ("index.html", "/log/", "/log/"), ("crew/vega/page/2/index.html", "/log", "/log/crew/vega/page/2/"),
    ])
    func sitePaths(file: String, base: String, path: String) {
        #expect(SiteUpdate.sitePath(ofFile: file, basePath: base) == path)
    }
}

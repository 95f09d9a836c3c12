import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A bare HTTP/1.1 client over a socket: it sends the request line exactly as written, so
/// traversal attempts reach the server unnormalised (URLSession would clean them up).
struct RawHTTP {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    let port: Int

    /// Sends one request (with `Connection: close`) and reads the whole response.
    func send(_ method: String = "GET", _ target: String, headers: [String: String] = [:]) throws -> Response {
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let bytes = try exchange(Array(request.utf8), until: nil)
        return try Self.parse(bytes, method: method)
    }

    /// Opens a connection, sends `request`, and reads until `marker` appears in what came
    /// back (or the server closes, or `timeout` passes). The timeout only bounds a hang: it is
    /// generous because `make test` runs these beside suites that keep both cores busy.
    func exchange(_ request: [UInt8], until marker: String?, timeout: TimeInterval = 60) throws -> [UInt8] {
        let socket = try connect()
        defer { close(socket) }
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw RawHTTPError.io("send") }
            sent += count
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) >= 0 else { break }
            guard descriptor.revents != 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += chunk[0..<count]
            if let marker, String(decoding: received, as: UTF8.self).contains(marker) { break }
        }
        return received
    }

    private func connect() throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw RawHTTPError.io("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(socket)
            throw RawHTTPError.io("connect")
        }
        return socket
    }

    static func parse(_ bytes: [UInt8], method: String) throws -> Response {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = (0...(max(0, bytes.count - 4))).first(where: { bytes.count >= $0 + 4 && Array(bytes[$0..<($0 + 4)]) == separator })
        else { throw RawHTTPError.malformed(String(decoding: bytes, as: UTF8.self)) }
        let head = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = head.first, statusLine.split(separator: " ").count >= 2,
              let status = Int(statusLine.split(separator: " ")[1])
        else { throw RawHTTPError.malformed(head.first ?? "") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: Array(bytes[(end + 4)...]))
    }
}

enum RawHTTPError: Error {
    case io(String)
    case malformed(String)
}

extension RawHTTP {
    /// ``send(_:_:headers:)`` on a thread of its own: blocking a pool thread could starve the
    /// server's tasks, which share the pools.
    func request(_ method: String = "GET", _ target: String, headers: [String: String] = [:]) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try send(method, target, headers: headers) }) }.start()
        }
    }

    /// ``exchange(_:until:timeout:)`` on a thread of its own.
    func stream(_ target: String, until marker: String, timeout: TimeInterval = 60) async throws -> String {
        let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n".utf8)
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { String(decoding: try exchange(request, until: marker, timeout: timeout), as: UTF8.self) })
            }.start()
        }
    }
}

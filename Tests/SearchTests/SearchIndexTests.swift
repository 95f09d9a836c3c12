import Foundation
import Testing
@testable import Search

@Suite("The search index's JSON")
struct SearchIndexTests {
    let documents = [
        SearchDocument(kind: "journal", url: "/journal/dust/", title: "Dust \"devil\" \\ day", sol: 12, date: "2038-11-14T09:30:00Z",
                       author: "Ada", tags: ["weather", "eva"], text: "Line\none\ttab \u{1} bell \u{2028} sep \u{2029} é ✓"),
        SearchDocument(kind: "message", url: "/sol/12/#m", title: "Ada on habitat", sol: 12, date: "2038-11-14T10:00:00Z",
                       author: "Ada", tags: [], text: ""),
    ]

    @Test("is valid JSON that gives back every field as it was")
    func roundTrip() throws {
        let bytes = SearchIndex.json(documents)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        let listed = try #require(object["documents"] as? [[String: Any]])
        #expect(listed.count == 2)
        for (document, json) in zip(documents, listed) {
            #expect(json["kind"] as? String == document.kind)
            #expect(json["url"] as? String == document.url)
            #expect(json["title"] as? String == document.title)
            #expect(json["sol"] as? Int == document.sol)
            #expect(json["date"] as? String == document.date)
            #expect(json["author"] as? String == document.author)
            #expect(json["tags"] as? [String] == document.tags)
            #expect(json["text"] as? String == document.text)
        }
    }

    @Test("a page of its own has no sol and no date: null")
    func pageOfItsOwn() throws {
        let page = SearchDocument(kind: "page", url: "/about/", title: "About", sol: nil, date: nil, author: "", tags: [], text: "Us")
        let text = String(decoding: SearchIndex.json([page]), as: UTF8.self)
        #expect(text.contains(#"{"kind":"page","url":"/about/","title":"About","sol":null,"date":null,"author":"","tags":[],"text":"Us"}"#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let listed = try #require(object["documents"] as? [[String: Any]])
        #expect(listed.first?["sol"] is NSNull && listed.first?["date"] is NSNull)
    }

    @Test("escapes what JSON and JavaScript need, and nothing else")
    func escaping() {
        let text = String(decoding: SearchIndex.json(documents), as: UTF8.self)
        #expect(text.contains(#""title":"Dust \"devil\" \\ day""#))
        #expect(text.contains(#""text":"Line\none\ttab \u0001 bell \u2028 sep \u2029 é ✓""#))
        #expect(text.contains(#""url":"/journal/dust/""#))
        #expect(!text.contains("\u{2028}"))
    }

    @Test("an empty part is an empty list")
    func empty() {
        #expect(String(decoding: SearchIndex.json([]), as: UTF8.self) == "{\"version\":1,\"documents\":[\n]}\n")
        #expect(SearchIndex.File.documents([]).json == SearchIndex.json([]))
    }

    @Test("the index names its parts in order")
    func parts() throws {
        let bytes = SearchIndex.File.parts(["/gen/search/part-2.json", "/gen/search/part-1.json"]).json
        #expect(String(decoding: bytes, as: UTF8.self) == "{\"version\":1,\"parts\":[\"/gen/search/part-2.json\",\"/gen/search/part-1.json\"]}\n")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(object["parts"] as? [String] == ["/gen/search/part-2.json", "/gen/search/part-1.json"])
    }
}

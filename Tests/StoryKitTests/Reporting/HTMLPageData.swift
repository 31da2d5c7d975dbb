import Foundation
import Testing

/// The run's data on an HTML page (`<script type="application/json" id="storyrun-data">`),
/// read back as JSON: a page whose data is not valid JSON fails here.
enum HTMLPageData {
    static let opening = #"<script type="application/json" id="storyrun-data">"#

    /// The data's text as the page holds it.
    static func text(in page: String) throws -> String {
        let start = try #require(page.range(of: opening), "the page has no data block")
        let end = try #require(page.range(of: "</script>", range: start.upperBound..<page.endIndex))
        return String(page[start.upperBound..<end.lowerBound])
    }

    /// The story files, each `{"n":…,"p":…,"s":[stories]}`.
    static func files(in page: String) throws -> [[String: Any]] {
        let data = try #require(try JSONSerialization.jsonObject(with: Data(text(in: page).utf8)) as? [String: Any])
        return try #require(data["files"] as? [[String: Any]])
    }

    /// Every story, file by file.
    static func stories(in page: String) throws -> [[String: Any]] {
        try files(in: page).flatMap { $0["s"] as? [[String: Any]] ?? [] }
    }
}

import Foundation
import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct EscapingTests {
    @Test("HTML-hostile text is escaped")
    func escapes() {
        #expect("<script>alert('x') & \"y\"</script>".htmlEscaped == "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;")
    }

    @Test("A quote, ampersand or angle bracket with a combining mark after it is still escaped")
    func combiningMarks() {
        // `"` + U+0301 is one Character but two scalars: a browser ends an
        // attribute at the quote (an attachment's name goes in `alt=` and `download=`).
        let hostile = "x\"\u{301} onerror=alert(1) <\u{338}b> &\u{301}"
        #expect(!hostile.htmlEscaped.unicodeScalars.contains("\""))
        #expect(!hostile.htmlEscaped.unicodeScalars.contains("<"))
        #expect(hostile.htmlEscaped == "x&quot;\u{301} onerror=alert(1) &lt;\u{338}b&gt; &amp;\u{301}")
        var bytes: [UInt8] = []
        bytes.htmlEscaped(hostile)
        #expect(String(decoding: bytes, as: UTF8.self) == hostile.htmlEscaped)
    }

    @Test("Story text in the HTML report never becomes markup")
    func htmlReportEscapesStories() {
        let story = Story(name: "<script>alert(1)</script>", tags: ["@<b>"], location: .init(file: "x.stories", line: 1),
                          steps: [Step(keyword: "Given", kind: .context, text: "<img src=x onerror=alert(1)>", location: .init(file: "x.stories", line: 2))])
        var reporter = HTMLReporter(path: "/dev/null")
        reporter.handle(.storyFinished(StoryResult(
            story: story, status: .failed,
            steps: [StepResult(step: story.steps[0], status: .failed, duration: 0, error: StepError(message: "</pre><script>"), match: nil, alsoMatched: [])],
            duration: 0)))
        let page = reporter.page
        #expect(!page.contains("<script>alert"))
        #expect(!page.contains("<img"))
        #expect(!page.contains("</pre><script>"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the name in Needs attention, escaped as HTML")
        #expect(page.contains(#""n":"\u003cscript\u003ealert(1)\u003c/script\u003e""#), "the name in the page's data, escaped for a script element")
    }

    @Test("JSON strings escape quotes, backslashes and control characters")
    func json() {
        #expect(JSONValue.string("a\"b\\c\n\u{1}").text == #""a\"b\\c\n\u0001""#)
        #expect(JSONValue.object([("k", .array([.int(1), .null, .bool(true)]))]).text == #"{"k":[1,null,true]}"#)
    }
}

/// Strings in the HTML page's data, inside `<script type="application/json">`.
@Suite(.timeLimit(.minutes(10))) struct ScriptJSONTests {
    static func json(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.scriptJSON(text)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("Nothing in a string can end the script element or the JSON, and it reads back whole", arguments: [
        "plain text", "</script><script>alert(1)</script>", "<!--<script>", "a\"b\\c\n\t\u{1}\u{1B}[31m", "line\u{2028}and\u{2029}para", "naïve — ✓ & <b>",
    ])
    func escaped(text: String) throws {
        let json = Self.json(text)
        for forbidden in ["<", ">", "&", "\u{2028}", "\u{2029}", "\u{1B}"] { #expect(!json.contains(forbidden)) }
        let back = try JSONSerialization.jsonObject(with: Data("[\(json)]".utf8)) as? [String]
        #expect(back == [text])
    }

    @Test("ANSI escape sequences are taken off text written as HTML")
    func ansiStripped() {
        #expect("\u{1B}[1;32mgreen\u{1B}[0m plain".ansiStripped == "green plain")
        #expect("no codes".ansiStripped == "no codes")
    }
}

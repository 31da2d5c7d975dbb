import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct LineEndAndEncodingTests {
    @Test("Classic Mac line ends (a lone CR) are read as lines")
    func classicMac() {
        let (stories, diagnostics) = StoryLoader.parseFile(at: Golden.fixture("reading/classic-mac-line-ends.stories"))
        #expect(diagnostics.isEmpty)
        #expect(stories.map(\.name) == ["Classic Mac"])
        #expect(stories.first?.steps.map(\.location.line) == [2, 3, 4])
        let mixed = StoriesParser.parse("Story: a\r\n  Given x\r  Then y\n", path: "m.stories").stories
        #expect(mixed.first?.steps.map(\.text) == ["x", "y"])
    }

    @Test("UTF-16 files are named as UTF-16, with or without a byte order mark")
    func utf16() {
        let text = Array("Story: x\n".utf16)
        let little = text.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let big = text.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(StoryLoader.utf16Encoding(little) == "UTF-16LE")
        #expect(StoryLoader.utf16Encoding(big) == "UTF-16BE")
        #expect(StoryLoader.utf16Encoding([0xFE, 0xFF] + big) == "UTF-16BE")
        #expect(StoryLoader.utf16Encoding(Array("Story: x\n".utf8)) == nil)
        guard case .failure(let diagnostic) = StoryLoader.readText(at: Golden.fixture("stories/bad/utf16.stories")) else {
            Issue.record("a UTF-16 file was read")
            return
        }
        #expect(diagnostic.problem == "the file is UTF-16LE text, not UTF-8")
    }
}

import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct StringReplacingTests {
    @Test("Every target is replaced left to right without overlaps, bytes compared exactly", arguments: [
        ("a <x> b <x>", "<x>", "1", "a 1 b 1"),
        ("<x>", "<x>", "", ""),
        ("<x><x>", "<x>", "<x>", "<x><x>"),
        ("aaaa", "aa", "b", "bb"),
        ("aaa", "aa", "b", "ba"),
        ("no target here", "<x>", "1", "no target here"),
        ("short", "longer than the text", "1", "short"),
        ("text", "", "1", "text"),
        ("<ü> and <u>", "<ü>", "ue", "ue and <u>"),
        ("ends with <x", "<x>", "1", "ends with <x"),
        ("<<x>>", "<x>", "1", "<1>"),
    ])
    func replacingAll(text: String, target: String, replacement: String, expected: String) {
        #expect(text.replacingAll(target, with: replacement) == expected)
    }
}

import Foundation
import Testing
@testable import StoryKit

/// ``RecentParses``: the files the feed parsed, kept a while for the reports.
@Suite(.timeLimit(.minutes(10))) struct RecentParsesTests {
    private static func parse(_ text: String) -> RecentParses.Parse {
        RecentParses.Parse(text: text, document: nil, nextID: 0)
    }

    @Test("A file kept is taken once, then no longer kept")
    func takeOnce() {
        let parses = RecentParses()
        parses.keep(Self.parse("Feature: a\n"), for: "a.feature")
        #expect(parses.take("b.feature") == nil)
        #expect(parses.take("a.feature")?.text == "Feature: a\n")
        #expect(parses.take("a.feature") == nil)
    }

    @Test("A file kept again replaces what was kept for it")
    func keptAgain() {
        let parses = RecentParses()
        parses.keep(Self.parse("old"), for: "a.feature")
        parses.keep(Self.parse("new"), for: "a.feature")
        #expect(parses.take("a.feature")?.text == "new")
        #expect(parses.take("a.feature") == nil)
    }

    @Test("Past the limit the oldest files go first")
    func limit() {
        let parses = RecentParses()
        for number in 0...RecentParses.limit { parses.keep(Self.parse("\(number)"), for: "\(number).feature") }
        #expect(parses.take("0.feature") == nil)
        #expect(parses.take("1.feature")?.text == "1")
        #expect(parses.take("\(RecentParses.limit).feature")?.text == "\(RecentParses.limit)")
    }

    @Test("Past the byte limit the oldest files go, but never the last one")
    func byteLimit() {
        let parses = RecentParses()
        let large = String(repeating: "x", count: RecentParses.byteLimit / 2 + 1)
        parses.keep(Self.parse(large), for: "a.feature")
        parses.keep(Self.parse(large), for: "b.feature")
        #expect(parses.take("a.feature") == nil)
        #expect(parses.take("b.feature") != nil)
        parses.keep(Self.parse(large + large), for: "c.feature")
        #expect(parses.take("c.feature") != nil)
    }

    @Test("A file that starts with a byte order mark is not kept: the reports read it as Foundation does")
    func byteOrderMark() {
        let parses = RecentParses()
        parses.keep(Self.parse("\u{FEFF}Feature: a\n"), for: "a.feature")
        #expect(parses.take("a.feature") == nil)
    }
}

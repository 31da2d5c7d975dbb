import Testing
@testable import StoryKit

/// The lines a parent and its workers exchange, read from their bytes.
@Suite(.timeLimit(.minutes(10))) struct WorkerWireTests {
    private func message(_ line: String) -> WorkerWire.Message? {
        Array(line.utf8).withUnsafeBufferPointer { WorkerWire.parse(bytes: $0) }
    }

    @Test("A passed story's line gives its hooks, steps, definitions and captured texts")
    func passedLine() {
        guard case .passed(let sequence, let duration, let testSteps)? = message("P 3 100 h1:5 s:10:2:1,~,x s:7:0:") else {
            Issue.record("not read as a passed story")
            return
        }
        #expect(sequence == 3)
        #expect(duration == 100)
        #expect(testSteps.count == 3)
        #expect(testSteps[0].hook == 1 && testSteps[0].duration == 5)
        #expect(testSteps[1].hook == nil && testSteps[1].definition == 2 && testSteps[1].duration == 10)
        #expect(testSteps[1].arguments == ["1", nil, "x"])
        #expect(testSteps[2].arguments.isEmpty)
    }

    @Test("An empty captured text is one argument, apart from none")
    func emptyArgument() {
        for (line, arguments) in [("P 0 1 s:1:0:%_", [""]), ("P 0 1 s:1:0:%_,x", ["", "x"]), ("P 0 1 s:1:0:x,%_", ["x", ""]), ("P 0 1 s:1:0:", [])] {
            guard case .passed(_, _, let testSteps)? = message(line) else {
                Issue.record("\(line): not read as a passed story")
                continue
            }
            #expect(testSteps.first?.arguments == arguments, "\(line)")
        }
    }

    @Test("An escaped captured text is decoded")
    func escapedArgument() {
        guard case .passed(_, _, let testSteps)? = message("P 0 1 s:1:0:a%20b%2Cc,%7E") else {
            Issue.record("not read as a passed story")
            return
        }
        #expect(testSteps.first?.arguments == ["a b,c", "~"])
        // A separator followed by a combining mark splits all the same
        // (as Characters, the two are one).
        guard case .passed(_, _, let combining)? = message("P 0 1 s:1:0:\u{301}%20x,\u{301}") else {
            Issue.record("a line with combining marks not read")
            return
        }
        #expect(combining.first?.arguments == ["\u{301} x", "\u{301}"])
    }

    @Test("Lines that are not messages are rejected, the others read")
    func otherLines() {
        #expect(message("P 1") == nil)
        #expect(message("P x 1") == nil)
        #expect(message("Q 1") == nil)
        #expect(message("") == nil)
        if case .ready? = message("R") {} else { Issue.record("R not read") }
        if case .end? = message("E") {} else { Issue.record("E not read") }
        if case .used(let ids)? = message("U 1,4") { #expect(ids == [1, 4]) } else { Issue.record("U not read") }
        let givenBack = WorkerWire.line(.givenBack(sequence: 42))
        #expect(givenBack == "G 42\n")
        if case .givenBack(let sequence)? = message(String(givenBack.dropLast())) { #expect(sequence == 42) } else { Issue.record("G not read") }
        #expect(message("G x") == nil)
        let stopped = WorkerWire.line(.stopped(sequence: 7, "could not open story files (\"Too many\")\n"))
        if case .stopped(let sequence, let text)? = message(String(stopped.dropLast())) {
            #expect(sequence == 7 && text == "could not open story files (\"Too many\")\n")
        } else {
            Issue.record("X not read: \(stopped)")
        }
        #expect(message("X 7 not-json") == nil)
    }

    @Test("A request line gives its numbers and its path, percent-decoded")
    func request() {
        let bytes = Array("S 12 7 1 99 dir/a%09b%25.stories".utf8)
        bytes.withUnsafeBufferPointer { buffer in
            guard let request = WorkerWire.parseRequest(bytes: buffer) else {
                Issue.record("not read")
                return
            }
            #expect(request.sequence == 12 && request.line == 7 && request.attemptsUsed == 1 && request.fingerprint == 99)
            #expect(WorkerWire.path(request.path) == "dir/a\tb%.stories")
        }
        #expect(Array("S 1 2 0 x".utf8).withUnsafeBufferPointer { WorkerWire.parseRequest(bytes: $0) } == nil)
        #expect(Array("S 1 2".utf8).withUnsafeBufferPointer { WorkerWire.parseRequest(bytes: $0) } == nil)
    }

    @Test("A request line the parent writes is read back whole: its numbers, the story's fingerprint and an odd path")
    func requestRoundTrip() {
        let path = "dir/a\tb\n%41.feature"
        let story = FeatureFile.parse("Feature: f\n  Scenario: s\n    Given a step\n", path: path).stories[0]
        var bytes: [UInt8] = []
        WorkerWire.appendRequest(
            sequence: 12_345_678_901, story: story, attemptsUsed: 2, path: WorkerWire.requestPath(path), to: &bytes)
        #expect(bytes.last == 0x0A && bytes.filter { $0 == 0x0A }.count == 1)
        bytes.dropLast().withUnsafeBufferPointer { buffer in
            guard let request = WorkerWire.parseRequest(bytes: buffer) else {
                Issue.record("not read")
                return
            }
            #expect(request.sequence == 12_345_678_901 && request.line == story.location.line && request.attemptsUsed == 2)
            #expect(request.fingerprint == WorkerWire.fingerprint(of: story))
            #expect(WorkerWire.path(request.path) == path)
        }
    }

    @Test("A story's fingerprint is the same read twice, and differs after any small edit: a letter, a tag, a line, a cell, a doc string")
    func fingerprints() {
        func story(_ text: String) -> Story {
            FeatureFile.parse(text, path: "f.feature").stories[0]
        }
        let base = "Feature: f\n  @a\n  Scenario: s\n    Given a step of twenty-four bytes\n    When a table:\n      | x | y |\n    Then a doc:\n      \"\"\"\n      text\n      \"\"\"\n"
        let edits = [
            base.replacingOccurrences(of: "twenty-four", with: "twenty-fivr"), base.replacingOccurrences(of: "@a", with: "@b"),
            base.replacingOccurrences(of: "Scenario: s", with: "Scenario: t"), base.replacingOccurrences(of: "| y |", with: "| z |"),
            base.replacingOccurrences(of: "      text", with: "      texT"), base.replacingOccurrences(of: "  @a\n", with: "  @a\n\n"),
            base.replacingOccurrences(of: "bytes", with: "byte"), base.replacingOccurrences(of: "Given", with: "And"),
        ]
        let fingerprint = WorkerWire.fingerprint(of: story(base))
        #expect(WorkerWire.fingerprint(of: story(base)) == fingerprint)
        for edit in edits {
            #expect(WorkerWire.fingerprint(of: story(edit)) != fingerprint, "\(edit)")
        }
    }
}

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
        if case .ready(nil)? = message("R") {} else { Issue.record("R not read") }
        if case .ready("0a1b")? = message("R 0a1b") {} else { Issue.record("R with a build id not read") }
        #expect(WorkerWire.line(.ready(build: "0a1b")) == "R 0a1b\n")
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

    /// The stories a batch's lines carry, read back as a worker reads them.
    private func readBack(_ bytes: [UInt8]) -> [(sequence: UInt64, attemptsUsed: Int, story: Story)] {
        var requests = StoryRequests()
        var read: [(sequence: UInt64, attemptsUsed: Int, story: Story)] = []
        bytes.withUnsafeBufferPointer { buffer in
            for line in buffer.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
                if let request = requests.read(UnsafeBufferPointer(rebasing: line)) { read.append(request) }
            }
        }
        return read
    }

    /// A worker receives the story the parent planned, and no longer reads
    /// its file: everything the story holds must come across, equal.
    @Test("A batch's stories are read back equal to those the parent planned: names, tags, steps, doc strings, tables, odd paths and texts")
    func requestRoundTrip() {
        let path = "dir/a\tb\n%41 é.feature"
        let text = """
            # language: en
            Feature: f%25 \t
              Background:
                Given a background step
              @a @b%
              Scenario Outline: s <x>
                * a table:
                  | x | y \\| z |
                  | <x> | \\n |
                When a doc:
                  ```json
                  {"a": "b\tc"}
                  100%
                  ```
                Then a step with a "%" and é
                But a doc with none:
                  \"\"\"
                  \"\"\"
                Examples:
                  | x |
                  | 1 |
                  | 2% |
            """
        let feature = FeatureFile.parse(text, path: path).stories
        var stories = feature
        stories.append(Story(
            id: "custom id", name: "", tags: [], location: SourceLocation(file: "other\u{7F}.stories", line: 3, column: 2),
            steps: [Step(keyword: "Given", kind: .context, text: "", location: SourceLocation(file: "elsewhere.stories", line: 9))],
            groupName: "a group of its own"))
        #expect(feature.count == 2)
        var bytes: [UInt8] = []
        var file: (path: String, group: String)?
        for (index, story) in stories.enumerated() where story.location.file != file?.path {
            file = (story.location.file, story.groupName)
            WorkerWire.appendFile(path: WorkerWire.requestPath(story.location.file), group: story.groupName, to: &bytes)
            WorkerWire.appendRequest(sequence: 12_345_678_901 + UInt64(index), story: story, attemptsUsed: index, file: file!, to: &bytes)
            if index == 0 {
                // A second story of the same file, with no file line between.
                WorkerWire.appendRequest(sequence: 7, story: stories[1], attemptsUsed: 1, file: file!, to: &bytes)
            }
        }
        #expect(bytes.filter { $0 == 0x0A }.count == 5, "one line a story, and one a file")
        let read = readBack(bytes)
        #expect(read.map(\.sequence) == [12_345_678_901, 7, 12_345_678_903])
        #expect(read.map(\.attemptsUsed) == [0, 1, 2])
        #expect(read.map(\.story) == [stories[0], stories[1], stories[2]])
        #expect(read.first?.story.steps.count == 5 && read.first?.story.steps[1].attachment != nil)
    }

    @Test("A request line cut short, or with a field that is no number where one is due, is not read as a story")
    func brokenRequests() {
        let story = Story(name: "s", location: SourceLocation(file: "a.stories", line: 1), steps: [
            Step(keyword: "Given", kind: .context, text: "a step", location: SourceLocation(file: "a.stories", line: 2)),
        ])
        var bytes: [UInt8] = []
        WorkerWire.appendFile(path: WorkerWire.requestPath("a.stories"), group: "a.stories", to: &bytes)
        WorkerWire.appendRequest(sequence: 1, story: story, attemptsUsed: 0, file: ("a.stories", "a.stories"), to: &bytes)
        #expect(readBack(bytes).map(\.story) == [story])
        let line = Array(bytes.split(separator: 0x0A)[1])
        for cut in 1..<line.count {
            #expect(readBack(bytes.prefix(bytes.count - line.count - 1) + line.prefix(cut) + [0x0A]).isEmpty, "cut at \(cut)")
        }
        let letters = Array(String(decoding: line, as: UTF8.self).replacingOccurrences(of: "\t1\t", with: "\tx\t").utf8)
        #expect(readBack(bytes.prefix(bytes.count - line.count - 1) + letters + [0x0A]).isEmpty)
    }
}

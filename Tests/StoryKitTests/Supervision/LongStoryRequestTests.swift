import Testing
@testable import StoryKit

/// A long story's request in parts (issue 29, "Long stories"): its `S` line
/// holds its first ``WorkerWire/partSize`` steps, `s` lines the rest, and
/// the worker reads (and matches) each part as it comes.
@Suite(.timeLimit(.minutes(10))) struct LongStoryRequestTests {
    static let file = "long\tstory %é.stories"

    /// A story of `count` steps with odd texts, doc strings and tables
    /// here and there (around the parts' edges among them), and some steps
    /// from another file.
    static func story(_ count: Int, name: String = "a long story\t%\u{7F}") -> Story {
        let steps = (0..<count).map { index -> Step in
            let file = index % 7 == 3 ? "background.stories" : Self.file
            var step = Step(
                keyword: index == 0 ? "Given" : "And", kind: index == 0 ? .context : .action,
                text: "step \(index) \(index % 5 == 0 ? "with\ta tab, a\nnewline, 100% and é 🦊\u{0}" : "passes")",
                location: SourceLocation(file: file, line: index + 2, column: 5))
            if [1, 511, 512, 1_023, 1_500, count - 1].contains(index) {
                step.attachment = .docString(DocString(
                    content: "line one\n\tline two %41\r\n", mediaType: index == 511 ? nil : "json", delimiter: "```",
                    location: SourceLocation(file: file, line: index + 3, column: 7)))
            } else if [2, 513, 1_024, 1_999].contains(index) {
                step.attachment = .dataTable(DataTable(
                    rows: [["a", "b|c"], ["%", "\t\n"], []], location: SourceLocation(file: Self.file, line: index + 3, column: 7)))
            }
            return step
        }
        return Story(
            name: name, tags: ["@long", "@%"], location: SourceLocation(file: Self.file, line: 1, column: 1), steps: steps)
    }

    /// The request lines of `stories` (one file), each part handed on as
    /// it is made; and the byte counts handed on before each `s` line.
    static func lines(_ stories: [(sequence: UInt64, story: Story)]) -> (lines: [[UInt8]], handedOn: [Int]) {
        var bytes: [UInt8] = []
        var sent: [UInt8] = []
        var handedOn: [Int] = []
        WorkerWire.appendFile(path: WorkerWire.requestPath(Self.file), group: Self.file, to: &bytes)
        for (sequence, story) in stories {
            WorkerWire.appendRequest(sequence: sequence, story: story, attemptsUsed: 1, file: (Self.file, Self.file), to: &bytes) { made in
                handedOn.append(made.count)
                #expect(made.last == 0x0A, "a part is handed on whole")
                sent += made
                made.removeAll()
            }
        }
        sent += bytes
        return (sent.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map(Array.init), handedOn)
    }

    /// What a worker reads from `lines`: the stories, and each line's steps
    /// as they arrived (their indices in their story).
    static func read(_ lines: [[UInt8]]) -> (stories: [(sequence: UInt64, story: Story)], arrived: [Range<Int>]) {
        var requests = StoryRequests()
        var stories: [(sequence: UInt64, story: Story)] = []
        var arrived: [Range<Int>] = []
        for line in lines {
            let read = line.withUnsafeBufferPointer { requests.read($0) { arrived.append($0.indices) } }
            if let read { stories.append((read.sequence, read.story)) }
        }
        return (stories, arrived)
    }

    @Test("A story of 2,000 steps goes as an S line and three s lines, each handed on as made, and reads back equal, a part at a time")
    func longStoryInParts() {
        let long = Self.story(2_000)
        let short = Self.story(WorkerWire.partSize, name: "just one part")
        let (lines, handedOn) = Self.lines([(12_345, long), (12_346, short)])
        #expect(lines.map { String(decoding: $0.prefix(2), as: UTF8.self) } == ["F\t", "S\t", "s\t", "s\t", "s\t", "S\t"])
        #expect(lines[2].starts(with: Array("s\t12345\t512\t512\t".utf8)))
        #expect(lines[4].starts(with: Array("s\t12345\t1536\t464\t".utf8)))
        // Before each s line, what was made so far: the file line and the S
        // line, then one s line at a time.
        #expect(handedOn == [lines[0].count + lines[1].count + 2, lines[2].count + 1, lines[3].count + 1])
        let (stories, arrived) = Self.read(lines)
        #expect(stories.map(\.sequence) == [12_345, 12_346])
        #expect(stories.first?.story == long)
        #expect(stories.last?.story == short)
        #expect(arrived == [0..<512, 512..<1_024, 1_024..<1_536, 1_536..<2_000, 0..<512])
    }

    @Test("A short story's request is one line, as before parts: a story of 512 steps, and one of none")
    func shortStoriesOneLine() {
        let stories = [(UInt64(1), Self.story(WorkerWire.partSize)), (2, Self.story(0)), (3, Self.story(3))]
        let (lines, handedOn) = Self.lines(stories)
        #expect(handedOn.isEmpty)
        #expect(lines.count == 4)
        #expect(Self.read(lines).stories.map(\.story) == stories.map(\.1))
        let three = String(decoding: lines[3], as: UTF8.self).split(separator: "\t", omittingEmptySubsequences: false)
        #expect(Array(three.prefix(13)) == ["S", "3", "1", "1", "1", "%", "a long story%09%25%7F", "%", "2", "@long", "@%25", "3", "Given"])
    }

    /// The lines of a long story (F, S, three s) and a short story's S line
    /// after it, with `change` made to them.
    static func changed(_ change: (inout [[UInt8]]) -> Void) -> [(sequence: UInt64, story: Story)] {
        var lines = Self.lines([(12_345, Self.story(2_000)), (9, Self.story(3))]).lines
        change(&lines)
        return Self.read(lines).stories
    }

    /// A line's tab-separated field `index` set to `value`.
    static func setting(_ line: [UInt8], field index: Int, to value: String, was: String) -> [UInt8] {
        var fields = line.split(separator: 0x09, omittingEmptySubsequences: false).map(Array.init)
        #expect(String(decoding: fields[index], as: UTF8.self) == was)
        fields[index] = Array(value.utf8)
        return Array(fields.joined(separator: [0x09]))
    }

    @Test("A long story with a part damaged, out of order, twice, missing, for another story, with too many or too few steps, or cut by another line, is refused; the lines after it are read")
    func damagedParts() {
        let whole = Self.changed { _ in }
        #expect(whole.map(\.sequence) == [12_345, 9])
        #expect(whole.first?.story.steps.count == 2_000)
        let damages: [(String, (inout [[UInt8]]) -> Void)] = [
            ("parts swapped", { $0.swapAt(2, 3) }),
            ("a part twice", { $0.insert($0[3], at: 3) }),
            ("a part missing", { $0.remove(at: 3) }),
            ("the last part missing", { $0.remove(at: 4) }),
            ("a part of another story", { $0[3] = Self.setting($0[3], field: 1, to: "12346", was: "12345") }),
            ("a part from the wrong step", { $0[3] = Self.setting($0[3], field: 2, to: "1023", was: "1024") }),
            ("a part of no steps", { $0[4] = Array("s\t12345\t1536\t0".utf8) }),
            ("more steps than told", { $0[1] = Self.setting($0[1], field: 11, to: "1999", was: "2000") }),
            ("fewer steps than told", { $0[1] = Self.setting($0[1], field: 11, to: "2001", was: "2000") }),
            ("a part's count past its steps", { $0[3] = Self.setting($0[3], field: 3, to: "513", was: "512") }),
            ("a part's count short of its steps", { $0[3] = Self.setting($0[3], field: 3, to: "511", was: "512") }),
            ("a file line between parts", { $0.insert($0[0], at: 3) }),
            ("a short story between parts", { $0.insert($0[5], at: 3) }),
            ("a line that is no request between parts", { $0.insert(Array("x".utf8), at: 3) }),
            ("an s line with no S line", { $0.remove(at: 1) }),
        ]
        for (name, damage) in damages {
            let read = Self.changed(damage)
            #expect(!read.contains { $0.sequence == 12_345 }, "\(name)")
            #expect(read.last?.sequence == 9 && read.last?.story.steps.count == 3, "\(name)")
        }
        // A short story read between the parts is read as it would be.
        #expect(Self.changed { $0.insert($0[5], at: 3) }.map(\.sequence) == [9, 9])
        // A part cut short, anywhere (every 101st byte).
        var line = Self.lines([(12_345, Self.story(2_000))]).lines[3]
        for cut in stride(from: 1, to: line.count, by: 101) {
            #expect(!Self.changed { $0[3] = Array(line.prefix(cut)) }.contains { $0.sequence == 12_345 }, "cut at \(cut)")
        }
        // Its sequence or count not a number.
        line = Self.setting(line, field: 1, to: "12x45", was: "12345")
        #expect(Self.changed { $0[3] = line }.map(\.sequence) == [9])
        // An s line after the story is whole is refused too.
        #expect(Self.changed { $0.append($0[4]) }.map(\.sequence) == [12_345, 9])
    }

    @Test("The steps of a story refused part way are not handed on with the next story's: its first steps start again at 0")
    func arrivedAfterRefusal() {
        var lines = Self.lines([(12_345, Self.story(2_000)), (9, Self.story(3))]).lines
        lines.remove(at: 3)
        #expect(Self.read(lines).arrived == [0..<512, 512..<1_024, 0..<3])
    }
}

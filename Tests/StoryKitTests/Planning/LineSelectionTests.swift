import Foundation
import StoryrunSteps
import Testing
@testable import StoryKit

/// `PATH:LINE` as Cucumber reads it, and `--rerun` files read back.
@Suite(.timeLimit(.minutes(10))) struct LineSelectionTests {
    static let feature = Golden.fixture("selection/lines.feature")

    /// The names of the stories a run with these arguments runs, its status and output.
    static func run(_ arguments: [String]) async -> (names: [String], status: StoryKit.ExitStatus, text: String) {
        var lines: [String] = []
        let status = await StoryRun.run(
            arguments: ["--format", "pretty"] + arguments, steps: StoryrunSteps.fixtures, clock: { 0 },
            output: { lines.append($0) })
        let names = lines.compactMap { line -> String? in
            guard let range = line.range(of: "Scenario: ") ?? line.range(of: "Story: ") else { return nil }
            return String(line[range.upperBound...]).components(separatedBy: "  ").first
        }
        return (names, status, lines.joined(separator: "\n"))
    }

    @Test("Each kind of line selects what it does in Cucumber", arguments: [
        (2, ["Adding apples", "Adding 2 pears", "Adding 5 plums", "Adding 1 figs", "Stocking from a table", "Stocking pears"]),
        (1, ["Adding apples", "Adding 2 pears", "Adding 5 plums", "Adding 1 figs", "Stocking from a table", "Stocking pears"]),
        (4, ["Adding apples", "Adding 2 pears", "Adding 5 plums", "Adding 1 figs", "Stocking from a table", "Stocking pears"]),
        (5, ["Adding apples", "Adding 2 pears", "Adding 5 plums", "Adding 1 figs", "Stocking from a table", "Stocking pears"]),
        (7, ["Adding apples"]),
        (9, ["Adding apples"]),
        (11, ["Adding 2 pears", "Adding 5 plums", "Adding 1 figs"]),
        (13, ["Adding 2 pears", "Adding 5 plums", "Adding 1 figs"]),
        (15, ["Adding 2 pears", "Adding 5 plums"]),
        (16, ["Adding 2 pears", "Adding 5 plums"]),
        (18, ["Adding 5 plums"]),
        (22, ["Adding 1 figs"]),
        (24, ["Stocking from a table", "Stocking pears"]),
        (26, ["Stocking from a table"]),
        (28, ["Stocking from a table"]),
        (33, ["Stocking pears"]),
    ])
    func featureLines(line: Int, expected: [String]) async {
        let run = await Self.run(["\(Self.feature):\(line)"])
        #expect(run.names == expected, "line \(line)")
        #expect(run.status != .inputError)
    }

    @Test("A line that selects nothing is an error naming the nearest story lines", arguments: [
        (0, "there is no line 0", "is 7"), (-1, "there is no line -1", "is 7"), (999, "line 999 selects no story", "is 32"),
        (10, "line 10 selects no story", "are 7 and 11"), (3, "line 3 selects no story", "is 7"),
    ])
    func nothingSelected(line: Int, problem: String, nearest: String) async {
        let run = await Self.run(["\(Self.feature):\(line)"])
        #expect(run.status == .inputError)
        #expect(run.names.isEmpty)
        #expect(run.text.contains(problem))
        #expect(run.text.contains("the nearest story line\(nearest.hasPrefix("is") ? "" : "s") \(nearest)"))
    }

    @Test("In a .stories file the title, its tag lines and the steps select a story")
    func storiesLines() async {
        let file = Golden.fixture("stories/good/basket.stories")
        #expect(await Self.run(["\(file):3"]).names == ["Adding apples"])
        #expect(await Self.run(["\(file):8"]).names == ["Adding apples"])
        #expect(await Self.run(["\(file):12:19"]).names == ["paying members get a discount", "Waiting for the warehouse"])
        #expect(await Self.run(["\(file):1"]).status == .inputError)
    }

    @Test("Tag lines set apart from their story by blank lines or comments select it, as they tag it")
    func distantTags() async throws {
        let folder = try Binary.temporaryFolder("line-selection")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/tags.stories"
        try """
            Story: before
              Given an empty basket

            @smoke

            # why it is slow
            @slow
            Story: tagged from afar
              Given an empty basket
            """.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(await Self.run(["\(file):4"]).names == ["tagged from afar"])
        #expect(await Self.run(["\(file):7"]).names == ["tagged from afar"])
        #expect(await Self.run(["\(file):2"]).names == ["before"])
        #expect(await Self.run(["\(file):3"]).status == .inputError)
    }

    @Test("The last row of a data table with comments between its rows selects its story")
    func tableWithComments() async throws {
        let folder = try Binary.temporaryFolder("line-selection")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/table.feature"
        try """
            Feature: Tables

              Scenario: Stocking with comments
                When the basket is stocked with:
                  | item   | count |
                  # the first
                  | apples | 2     |
                  # the second
                  | pears  | 1     |
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let run = await Self.run(["\(file):9"])
        #expect(run.names == ["Stocking with comments"], "\(run.text)")
        #expect(run.status != .inputError)
    }

    @Test("PATH:LINE PATH runs the whole file")
    func lineAndWholeFile() async {
        #expect(await Self.run(["\(Self.feature):7", Self.feature]).names.count == 6)
    }

    @Test("A rerun file selects exactly the failed stories again: outline examples and paths with spaces")
    func rerunRoundTrip() async throws {
        let folder = NSTemporaryDirectory() + "storyrun-rerun-\(UUID().uuidString)/my stories"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        let copy = folder + "/a b.feature"
        try FileManager.default.copyItem(atPath: Self.feature, toPath: copy)
        let rerun = folder + "/rerun.txt"
        let first = await Self.run(["--rerun", rerun, copy])
        #expect(first.status == .storyFailed)
        #expect(try String(contentsOfFile: rerun, encoding: .utf8) == copy + ":22\n")
        let second = await Self.run(["@" + rerun])
        #expect(second.names == ["Adding 1 figs"])
        #expect(second.status == .storyFailed)
    }

    @Test("Rerun entries: a whole line is one entry; Cucumber-Ruby's words on one line are read too")
    func rerunEntries() {
        let exists: (String) -> Bool = { ["a b.stories", "x.feature", "y.feature"].contains($0) }
        #expect(RerunReporter.entries(in: "a b.stories:1:4\r\n\n  x.feature:3 y.feature:9\n", exists: exists)
            == ["a b.stories:1:4", "x.feature:3", "y.feature:9"])
    }

    @Test("An empty rerun file means nothing to rerun: it says so and exits 0")
    func emptyRerun() async throws {
        let file = NSTemporaryDirectory() + "storyrun-empty-rerun-\(UUID().uuidString).txt"
        try Data("\n".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = await Self.run(["@" + file])
        #expect(run.status == .success)
        #expect(run.text.contains("nothing to rerun"))
    }
}

import Foundation
import Testing
@testable import StoryKit
import StoryrunSteps

@Suite(.timeLimit(.minutes(10))) struct StoryRunTests {
    static func run(_ arguments: [String]) async -> (StoryKit.ExitStatus, String) {
        var lines: [String] = []
        let status = await StoryRun.run(arguments: arguments, steps: StoryrunSteps.fixtures, clock: { 0 }, output: { lines.append($0) })
        return (status, lines.joined(separator: "\n"))
    }

    @Test("Exit status: 0 all passed, 1 a story failed, 2 input rejected", arguments: [
        ("stories/good/basket.stories", StoryKit.ExitStatus.success),
        ("stories/good/failing.stories", .storyFailed),
        ("stories/bad/unknown-keyword.stories", .inputError),
        ("stories/no-such.stories", .inputError),
    ])
    func exitStatus(path: String, expected: StoryKit.ExitStatus) async {
        #expect(await Self.run([Golden.fixture(path)]).0 == expected)
    }

    @Test("Usage errors exit 2 with a suggestion")
    func usage() async {
        let (status, text) = await Self.run(["--strikt", "x"])
        #expect(status == .inputError)
        #expect(text.contains("unknown option --strikt"))
        #expect(text.contains("did you mean --strict?"))
        #expect(await Self.run([]).0 == .inputError)
        #expect(await Self.run(["--html"]).0 == .inputError)
    }

    @Test("A tag without its @ in --tags is a usage error (exit 2), not a run that chose nothing and passed")
    func tagWithoutAt() async {
        let basket = Golden.fixture("stories/good/basket.stories")
        for expression in ["smoke", "@smoke and not wip", "not (a or @b)"] {
            let (status, text) = await Self.run(["--tags", expression, basket])
            #expect(status == .inputError, "\(expression)")
            #expect(text.contains("tags start with @"), "\(text)")
        }
        #expect(await Self.run(["--tags", "@nothing-has-this", basket]).0 == .success)
    }

    @Test("--help prints the usage and exits 0")
    func help() async {
        let (status, text) = await Self.run(["--help"])
        #expect(status == .success)
        #expect(text.contains("USAGE: storyrun [options] PATH..."))
    }

    @Test("A step definition that does not compile stops the run before any story, with exit 2")
    func badDefinitions() async {
        var lines: [String] = []
        let status = await StoryRun.run(arguments: [Golden.fixture("stories/good/basket.stories")], steps: [BadSteps.self], output: { lines.append($0) })
        #expect(status == .inputError)
        #expect(lines.contains { $0.contains("StepRegistryTests.swift:16:") || $0.contains("StepRegistryTests.swift:16: error") })
        #expect(!lines.contains { $0.hasPrefix("PASSED") })
    }

    @Test("A report that cannot be written exits 2")
    func unwritableReport() async {
        let (status, text) = await Self.run(["--html", "/no/such/folder/r.html", Golden.fixture("stories/good/basket.stories")])
        #expect(status == .inputError)
        #expect(text.contains("cannot write the report /no/such/folder/r.html"))
    }
}

extension StoryRunTests {
    /// Before, `check` with a path that named nothing listed every
    /// definition as unused: none was, its stories were just not read.
    @Test("check with a path that names no story file lists no definition as unused, and exits 2")
    func checkMissingPath() async {
        let (status, output) = await Self.run(["check", "no-such-folder"])
        #expect(status == .inputError)
        #expect(output.contains("no such file or folder: no-such-folder"), "\(output)")
        #expect(!output.contains("unused: no step runs"), "\(output)")
        #expect(output.contains("Unused step definitions are not listed"), "\(output)")
    }
}

extension StoryRunTests {
    /// Before, a folder that holds no story file ran "0 passed" and exited
    /// 0, even under --strict: a wrong path looked like a green run.
    @Test("A folder with no story file says so; under --strict the run fails")
    func folderWithoutStories() async throws {
        let folder = Scratch.folder("empty")
        FileManager.default.createFile(atPath: folder + "/a.story", contents: nil)
        let (status, output) = await Self.run([folder])
        #expect(status == .success)
        #expect(output.contains("no .stories or .feature file in \(folder)"), "\(output)")
        let (strict, strictOutput) = await Self.run([folder, "--strict"])
        #expect(strict == .storyFailed, "\(strictOutput)")
    }
}

import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct WatchModeTests {
    @Test("A saved file runs whole, unless the command line named it with lines")
    func paths() {
        #expect(WatchMode.paths(for: ["s/a.stories", "s/b.stories"], arguments: ["s/", "./s/b.stories:3:9"])
            == ["s/a.stories", "./s/b.stories:3:9"])
    }

    @Test("--watch takes Stories/ or the current folder when no path is given; --watch-poll and --watch-sources imply it")
    func options() throws {
        let watching = try Options(arguments: ["--watch", "--tags", "@wip"])
        #expect(watching.watch == WatchSettings())
        #expect(watching.paths == WatchSettings.defaultPaths)
        #expect(try Options(arguments: ["--watch-poll", "s"]).watch == WatchSettings(isPolling: true))
        #expect(try Options(arguments: ["--watch", "--watch-sources", "Src", "s"]).watch == WatchSettings(sourcesFolder: "Src"))
        #expect(throws: Diagnostic.self) { try Options(arguments: ["--watch-sources"]) }
        #expect(try Options(arguments: ["s"]).watch == nil)
    }
}

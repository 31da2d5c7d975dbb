import Foundation

/// The worker side of `--jobs` and `--isolate`: runs the stories its parent
/// names on standard input (`PATH<TAB>LINE` a line) and writes their events
/// to standard output as ``EventLine``s.
enum Worker {
    /// Tells the parent the worker is ready for its next story.
    static let readyLine = "\u{1E}storyrun-ready"

    /// Runs stories until standard input ends, then emits the totals.
    static func run(registry: StepRegistry, configuration: Runner.Configuration, clock: @escaping @Sendable () -> UInt64) async -> ExitStatus {
        var runner = Runner(registry: registry, configuration: configuration, now: clock)
        var file = ""
        var stories: [Story] = []
        // Written straight to the file descriptor, unbuffered, so the parent
        // hears each event even if the next step crashes the process.
        func send(_ line: String) {
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        // Step results travel inside the story's result (the parent replays
        // them), which halves the JSON to write and read.
        func write(_ event: RunEvent) {
            switch event {
            case .storyStarted, .stepFinished: break
            default: send(EventLine.encode(event))
            }
        }
        await runner.begin(emit: write)
        send(readyLine)
        while let request = readLine() {
            let parts = request.split(separator: "\t")
            guard parts.count == 2, let line = Int(parts[1]) else { continue }
            if file != String(parts[0]) {
                file = String(parts[0])
                stories = StoryLoader.parseFile(at: file).stories
            }
            if let story = stories.first(where: { $0.location.line == line }) {
                await runner.run(story, emit: write)
            } else {
                write(.diagnostic(Diagnostic(at: SourceLocation(file: file, line: line), problem: "no story starts at this line")))
            }
            // A step that overran its limit may still hold a thread: start afresh.
            if runner.watchdog.hasFired { break }
            send(readyLine)
        }
        _ = await runner.finish(emit: write)
        return .success
    }
}

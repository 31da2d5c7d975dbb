/// Keeps a line at the bottom of the terminal with the stories done so far,
/// the failures, the time the run has taken and the story running, for long
/// runs; it erases the line when the run is over.
struct LiveStatusReporter: Reporter {
    private let line: TerminalLine
    private let style: TextStyle
    private let now: () -> UInt64
    private var start: UInt64 = 0
    private var files = 0
    private var fileIndex = 0
    private var currentFile = ""
    private var done = 0
    private var failed = 0

    /// Creates the reporter.
    /// - Parameters:
    ///   - line: The terminal line to rewrite.
    ///   - style: How to colour the text.
    ///   - now: The current time in nanoseconds.
    init(line: TerminalLine, style: TextStyle, now: @escaping () -> UInt64) {
        self.line = line
        self.style = style
        self.now = now
    }

    /// It shows the story that runs (`storyStarted`).
    var readsStoryProgress: Bool { true }

    mutating func handle(_ event: RunEvent) {
        switch event {
        case .runStarted(let count):
            start = now()
            files = count
        case .storyStarted(let story):
            if story.location.file != currentFile {
                currentFile = story.location.file
                fileIndex += 1
            }
            line.show(text(running: story.name))
        case .storyFinished(let result):
            done += 1
            if result.status == .failed { failed += 1 }
        case .runFinished:
            line.clear()
        case .stepStarted, .stepFinished, .diagnostic, .runHookFinished, .storyFileRejected:
            break
        }
    }

    /// `[file 2/7 · 12 stories done · 1 failed · 3.2 s] Story name`; files
    /// are read as they run, so the number of stories is not known ahead.
    func text(running name: String) -> String {
        let seconds = Double(now() &- start) / 1_000_000_000
        var counts = "file \(fileIndex)/\(files) · \(done) stories done"
        if failed > 0 { counts += " · " + style.paint("\(failed) failed", .red) }
        let elapsed = seconds < 10 ? String(format: "%.1f s", seconds) : String(format: "%.0f s", seconds)
        let title = name.count > 60 ? String(name.prefix(59)) + "…" : name
        return style.paint("[", .gray) + counts + style.paint(" · \(elapsed)]", .gray) + " " + title
    }
}

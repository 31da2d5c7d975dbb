/// Writes the `file:line` of every failed or undefined story, one a line, so
/// the next run can start with just those stories.
public struct RerunReporter: Reporter {
    private let path: String
    private var places: [String] = []

    /// Creates a reporter that writes to a path when the run is over.
    public init(path: String) {
        self.path = path
    }

    public mutating func handle(_ event: RunEvent) {
        guard case .storyFinished(let result) = event,
              result.status == .failed || result.status == .undefined
        else { return }
        places.append(result.story.location.displayFileAndLine)
    }

    public mutating func finish() throws {
        try AtomicFile.write(text, to: path)
    }

    /// The file's text.
    var text: String {
        places.map { $0 + "\n" }.joined()
    }
}

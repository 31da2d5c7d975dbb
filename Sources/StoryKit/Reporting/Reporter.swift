/// A consumer of run events that writes one kind of report.
///
/// To add a report format, write one type that conforms and add it to the
/// command line's list of reporters.
public protocol Reporter {
    /// Takes the next event of the run.
    mutating func handle(_ event: RunEvent)
    /// Finishes the report once the run is over (for example writes a file).
    /// - Throws: When the report cannot be written.
    mutating func finish() throws
    /// Whether it reads a story's progress (`storyStarted`, `stepStarted`
    /// and `stepFinished`); true unless it says otherwise. When no reporter
    /// reads them, a run does not make those events: `storyFinished`
    /// carries the whole story all the same.
    var readsStoryProgress: Bool { get }
}

extension Reporter {
    public mutating func finish() throws {}
    public var readsStoryProgress: Bool { true }
}

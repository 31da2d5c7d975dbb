/// The stories of one run, in the order they run: from the feed a batch at
/// a time (memory stays flat), or all held first when the order needs every
/// story (a random order, watch mode's failures first). The problems the
/// feed found on the way go to the reports as they come, each file's as one
/// event, and are counted: a rerun reads the files they rejected whole.
final class RunQueue {
    private let feed: StoryFeed
    private let reports: RunReports
    private var held: [PlannedStory]?
    private var current: [PlannedStory] = []
    private var currentIndex = 0
    /// How many errors the input had.
    private(set) var rejected = 0
    /// The story files those errors rejected, as they were named.
    private(set) var rejectedFiles: [String] = []

    init(feed: StoryFeed, reports: RunReports) {
        self.feed = feed
        self.reports = reports
    }

    /// Reads every story first, in `order`, those `runsFirst` picks first.
    func hold(_ order: StoryOrder, runsFirst: ((Story) -> Bool)?) {
        var stories: [PlannedStory] = []
        while let batch = feed.next() {
            note(batch.diagnostics)
            stories += batch.stories
        }
        var ordered = order.apply(to: stories)
        if let runsFirst {
            ordered = ordered.filter { runsFirst($0.story) } + ordered.filter { !runsFirst($0.story) }
        }
        held = ordered
    }

    /// The next story to run, from the held list or the feed; nil at the end.
    func next() -> PlannedStory? {
        if held != nil { return held!.isEmpty ? nil : held!.removeFirst() }
        while currentIndex == current.count {
            guard let batch = feed.next() else { return nil }
            note(batch.diagnostics)
            // The batch run goes back to the feed's thread, which made
            // it, to be freed (see ``Spent``).
            if !current.isEmpty { feed.recycle(StoryFeed.Batch(path: "", stories: current, diagnostics: [])) }
            current = batch.stories
            currentIndex = 0
        }
        currentIndex += 1
        return current[currentIndex - 1]
    }

    /// Where every story not yet run starts, read to the end.
    func drain() -> [SourceLocation] {
        var locations: [SourceLocation] = []
        while let planned = next() { locations.append(planned.story.location) }
        return locations
    }

    private func note(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { reports.emit(.diagnostic(diagnostic)) }
        noteRejected(diagnostics)
    }

    /// Sends each file's errors to the reports as one event and counts
    /// them. A path that names no file (`nope.stories`) has no place: its
    /// errors go as a rejected file without a path.
    func noteRejected(_ diagnostics: [Diagnostic]) {
        var files: [RejectedFile] = []
        var unplaced: [Diagnostic] = []
        for diagnostic in diagnostics where diagnostic.isError {
            rejected += 1
            guard let location = diagnostic.location else {
                unplaced.append(diagnostic)
                continue
            }
            if !rejectedFiles.contains(location.displayPath) { rejectedFiles.append(location.displayPath) }
            if let index = files.firstIndex(where: { $0.path == location.file }) {
                files[index].problems.append(diagnostic)
            } else {
                files.append(RejectedFile(path: location.file, problems: [diagnostic]))
            }
        }
        if !unplaced.isEmpty { files.append(RejectedFile(path: "", problems: unplaced)) }
        for file in files { reports.emit(.storyFileRejected(file)) }
    }
}

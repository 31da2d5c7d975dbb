import Foundation

/// What watch mode remembers between runs: which stories failed (they run
/// first next time) and what the last run came to, for the status line.
struct WatchRecord {
    /// A story by its file and name, which outlive edits above it.
    private struct Key: Hashable {
        var file: String
        var name: String

        init(_ story: Story) {
            file = StoryPath.canonical(story.location.file)
            name = story.name
        }
    }

    private var failing: Set<Key> = []
    /// The stories of the last run, by file and status: a file deleted
    /// since leaves the counts.
    private var countsByFile: [String: [StoryStatus: Int]] = [:]
    /// The stories of the last run, by status.
    var counts: [StoryStatus: Int] {
        countsByFile.values.reduce(into: [:]) { total, counts in total.merge(counts, uniquingKeysWith: +) }
    }
    /// Whether the last run finished every story it had.
    private(set) var wasInterrupted = false

    /// Notes an event of a run.
    mutating func note(_ event: RunEvent) {
        switch event {
        case .runStarted:
            countsByFile = [:]
            wasInterrupted = false
        case .storyFinished(let result):
            let key = Key(result.story)
            if result.status == .failed || result.status == .undefined {
                failing.insert(key)
            } else {
                failing.remove(key)
            }
            countsByFile[key.file, default: [:]][result.status, default: 0] += 1
        case .runFinished(let summary):
            wasInterrupted = summary.wasInterrupted
        default: break
        }
    }

    /// Whether the story failed (or was undefined) the last time it ran.
    func hasFailed(_ story: Story) -> Bool { failing.contains(Key(story)) }

    /// Whether no story has failed.
    var isEmpty: Bool { failing.isEmpty }

    /// Whether any story of the file failed the last time it ran.
    func hasFailures(in file: String) -> Bool {
        let file = StoryPath.canonical(file)
        return failing.contains { $0.file == file }
    }

    /// Forgets the stories of a file that is gone (or about to run again):
    /// their failures and their place in the last run's counts.
    mutating func forget(file: String) {
        let file = StoryPath.canonical(file)
        failing = failing.filter { $0.file != file }
        countsByFile[file] = nil
    }

    /// The counts of the last run: `3 passed, 1 failed`.
    var countsText: String {
        let parts = StoryStatus.allCases.compactMap { status in
            counts[status].map { "\($0) \(status.rawValue)" }
        }
        return parts.isEmpty ? "no story ran" : parts.joined(separator: ", ")
    }

    /// The status line: `watching 12 files — last run: 3 passed, 1 failed
    /// at 12:03:04`; `outcome` replaces the counts (`build failed`).
    /// Paths of the run that are gone are named: `watching 0 files —
    /// Stories is gone, waiting for it — last run: …`.
    static func statusLine(fileCount: Int, missing: [String] = [], outcome: String, at time: Date) -> String {
        let gone = missing.isEmpty ? ""
            : " — \(missing.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") gone, waiting for \(missing.count == 1 ? "it" : "them")"
        return "watching \(fileCount) file\(fileCount == 1 ? "" : "s")\(gone) — \(outcome) at \(clockTime(time))"
    }

    /// The time of day, `12:03:04`, in the local time zone.
    static func clockTime(_ time: Date) -> String {
        let seconds = Int(time.timeIntervalSince1970) + TimeZone.current.secondsFromGMT(for: time)
        let day = ((seconds % 86_400) + 86_400) % 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(day / 3600)):\(two(day / 60 % 60)):\(two(day % 60))"
    }
}

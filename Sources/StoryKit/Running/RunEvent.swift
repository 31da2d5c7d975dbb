/// Something that happened during a run; reporters see nothing else.
public enum RunEvent: Sendable, Codable {
    /// The run begins with stories from this many files (stories are read
    /// and run file by file, so their number is not known yet).
    case runStarted(fileCount: Int)
    /// A story begins.
    case storyStarted(Story)
    /// A step of the story that is running is about to run (so a parent
    /// process knows where a worker that dies was).
    case stepStarted(Step)
    /// A step of the story that is running has an outcome.
    case stepFinished(StepResult)
    /// A story has an outcome.
    case storyFinished(StoryResult)
    /// A before-run or after-run hook has an outcome.
    case runHookFinished(HookResult)
    /// A problem with the input, or a warning (for example an ambiguous step).
    case diagnostic(Diagnostic)
    /// A story file the run rejected (a bad line): stories in it did not
    /// run, and the run exits 2. Its problems came as ``diagnostic(_:)``
    /// events too; file reports record the file from this one.
    case storyFileRejected(RejectedFile)
    /// The run is over.
    case runFinished(RunSummary)
}

/// The totals of a run.
public struct RunSummary: Sendable, Codable, Equatable {
    /// Stories by status.
    public var stories: [StoryStatus: Int] = [:]
    /// Steps by status.
    public var steps: [StepStatus: Int] = [:]
    /// How long the run took, in nanoseconds.
    public var duration: UInt64 = 0
    /// Step definitions that no story used.
    public var unusedDefinitions: [UnusedDefinition] = []
    /// Stories that passed only when run again (`--retry`).
    public var flaky: Int = 0
    /// Before-run and after-run hooks that failed.
    public var failedHooks: Int = 0
    /// Story and step hooks (before, after, before-step, after-step) that
    /// failed: a story that failed in its before hook has no failed step.
    public var failedStoryHooks: Int = 0
    /// Whether the run was interrupted (SIGINT, SIGTERM) before every
    /// story had run.
    public var wasInterrupted = false
    /// Stories that were selected but did not run (`--fail-fast`, an
    /// interrupt, or a worker that could not start).
    public var notRun: Int = 0
    /// Where those stories are, for the rerun report.
    public var notRunStories: [SourceLocation] = []
    /// What failed the run outside every step and hook (a worker that
    /// could not start), as said to the user: Cucumber Messages gives it
    /// in `testRunFinished`.
    public var runErrors: [String] = []
    /// The story files with a problem that kept stories in them from
    /// running (a bad line, a file that cannot be read), as they were
    /// named; a rerun reads them whole again.
    public var rejectedFiles: [String] = []

    /// Adds a story's outcome to the totals.
    mutating func add(_ result: StoryResult) {
        stories[result.status, default: 0] += 1
        if result.isFlaky { flaky += 1 }
        // By index, each status read in place (a `for case` loop would copy
        // every step's result), and one count per run of equal statuses.
        var status: StepStatus?
        var count = 0
        for index in result.testSteps.indices {
            guard let next = result.testSteps[index].stepStatus else {
                if result.testSteps[index].status == .failed { failedStoryHooks += 1 }
                continue
            }
            if next != status, let status { steps[status, default: 0] += count; count = 0 }
            status = next
            count += 1
        }
        if let status { steps[status, default: 0] += count }
    }

    /// Whether any story failed or did not run, a run hook failed, or a
    /// story was undefined or pending under `strict`: never a green run then.
    func hasFailures(strict: Bool) -> Bool {
        stories[.failed, default: 0] > 0 || failedHooks > 0 || wasInterrupted || notRun > 0
            || (strict && stories[.undefined, default: 0] + stories[.pending, default: 0] > 0)
    }
}

/// A story file the run rejected, and why.
public struct RejectedFile: Sendable, Codable, Equatable {
    /// The file, as the run named it; empty for a path that names no file
    /// (its problems then have no place).
    public var path: String
    /// Its errors, each with a place in it.
    public var problems: [Diagnostic]

    /// Creates a rejected file.
    public init(path: String, problems: [Diagnostic]) {
        self.path = path
        self.problems = problems
    }
}

/// A step definition no story used.
public struct UnusedDefinition: Sendable, Codable, Equatable {
    /// Its pattern.
    public var pattern: String
    /// Where it was registered.
    public var location: SourceLocation
    /// Whether it comes from a ``StepLibrary`` (listed only when asked).
    public var isFromLibrary = false
}

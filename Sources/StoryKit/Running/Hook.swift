/// Code that runs around stories, steps or the whole run, registered in a
/// step class's ``StepDefinitions/define(_:)``.
struct Hook: Sendable {
    /// When a hook runs.
    enum Kind: String, Sendable, Codable {
        case beforeRun = "before run", afterRun = "after run"
        case beforeStory = "before story", afterStory = "after story"
        case beforeStep = "before step", afterStep = "after step"
    }

    let kind: Kind
    /// The tag expression that limits the hook to some stories, if any.
    let tags: String?
    /// Whether a story with these tags gets the hook.
    let appliesTo: @Sendable ([String]) -> Bool
    /// Where the hook was registered.
    let location: SourceLocation
    /// Runs the hook in a story's context (or, for run hooks, with none).
    let body: @Sendable (StoryContext?) async throws -> Void
}

/// What happened when a hook ran.
public struct HookResult: Sendable, Codable, Hashable {
    /// When the hook ran: `before story`, `after step`…
    public var kind: String
    /// Where the hook was registered.
    public var location: SourceLocation
    /// Whether it passed or failed.
    public var status: StepStatus
    /// Why it failed.
    public var error: StepError?
    /// How long it ran, in nanoseconds.
    public var duration: UInt64
}

extension StepMap {
    /// Registers code to run before each story (limited to stories whose
    /// tags match `tags`, when given), on the story's instance of the class.
    public func before(
        tags: String? = nil, file: String = #filePath, line: Int = #line,
        _ body: @escaping @Sendable (Steps) async throws -> Void
    ) {
        addHook(.beforeStory, tags: tags, file: file, line: line, body)
    }

    /// Registers code to run after each story, even one that failed.
    public func after(
        tags: String? = nil, file: String = #filePath, line: Int = #line,
        _ body: @escaping @Sendable (Steps) async throws -> Void
    ) {
        addHook(.afterStory, tags: tags, file: file, line: line, body)
    }

    /// Registers code to run before each step.
    public func beforeStep(
        tags: String? = nil, file: String = #filePath, line: Int = #line,
        _ body: @escaping @Sendable (Steps) async throws -> Void
    ) {
        addHook(.beforeStep, tags: tags, file: file, line: line, body)
    }

    /// Registers code to run after each step that ran, even one that failed.
    public func afterStep(
        tags: String? = nil, file: String = #filePath, line: Int = #line,
        _ body: @escaping @Sendable (Steps) async throws -> Void
    ) {
        addHook(.afterStep, tags: tags, file: file, line: line, body)
    }

    /// Registers code to run once before the first story.
    public func beforeRun(file: String = #filePath, line: Int = #line, _ body: @escaping @Sendable () async throws -> Void) {
        builder.addHook(Hook(kind: .beforeRun, tags: nil, appliesTo: { _ in true }, location: SourceLocation(file: file, line: line)) { _ in try await body() })
    }

    /// Registers code to run once after the last story.
    public func afterRun(file: String = #filePath, line: Int = #line, _ body: @escaping @Sendable () async throws -> Void) {
        builder.addHook(Hook(kind: .afterRun, tags: nil, appliesTo: { _ in true }, location: SourceLocation(file: file, line: line)) { _ in try await body() })
    }

    private func addHook(
        _ kind: Hook.Kind, tags: String?, file: String, line: Int,
        _ body: @escaping @Sendable (Steps) async throws -> Void
    ) {
        let location = SourceLocation(file: file, line: line)
        var appliesTo: @Sendable ([String]) -> Bool = { _ in true }
        if let tags {
            do {
                appliesTo = try TagFilter.predicate(tags)
            } catch {
                builder.reject(.invalidTagExpression(tags, reason: "\(error)"), at: location)
                return
            }
        }
        builder.addHook(Hook(kind: kind, tags: tags, appliesTo: appliesTo, location: location) { context in
            guard let context else { return }
            try await body(context.instance(of: Steps.self))
        })
    }
}

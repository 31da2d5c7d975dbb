extension StepMap {
    /// Registers code to run before each story (limited to stories whose
    /// tags match `tags`, when given), on the story's instance of the class.
    /// A `name` shows in reports that name hooks (Cucumber Messages).
    public func before(
        name: String? = nil, tags: String? = nil, file: String = #filePath, line: Int = #line,
        _ body: @escaping @Sendable (Steps) async throws -> Void
    ) {
        addHook(.beforeStory, name: name, tags: tags, file: file, line: line, body)
    }

    /// Registers code to run after each story, even one that failed.
    public func after(
        name: String? = nil, tags: String? = nil, file: String = #filePath, line: Int = #line,
        _ body: @escaping @Sendable (Steps) async throws -> Void
    ) {
        addHook(.afterStory, name: name, tags: tags, file: file, line: line, body)
    }

    /// Registers code to run before each step.
    public func beforeStep(
        name: String? = nil, tags: String? = nil, file: String = #filePath, line: Int = #line,
        _ body: @escaping @Sendable (Steps) async throws -> Void
    ) {
        addHook(.beforeStep, name: name, tags: tags, file: file, line: line, body)
    }

    /// Registers code to run after each step that ran, even one that failed.
    public func afterStep(
        name: String? = nil, tags: String? = nil, file: String = #filePath, line: Int = #line,
        _ body: @escaping @Sendable (Steps) async throws -> Void
    ) {
        addHook(.afterStep, name: name, tags: tags, file: file, line: line, body)
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
        _ kind: Hook.Kind, name: String?, tags: String?, file: String, line: Int,
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
        builder.addHook(Hook(kind: kind, tags: tags, appliesTo: appliesTo, location: location, name: name) { context in
            guard let context else { return }
            try await body(context.instance(of: Steps.self))
        })
    }
}

/// Step classes isolated to the main actor (`@MainActor final class
/// ScreenSteps: StepDefinitions`), for UI and other main-actor code.
///
/// Their closures are registered with `step.onMainActor(…)`, so the closure
/// body runs on the main actor and may touch the class's state and any
/// `@MainActor` API; the class declares its `init()` and `define(_:)`
/// `nonisolated`, since storyrun calls them from outside the main actor:
///
/// ```swift
/// @MainActor final class ScreenSteps: StepDefinitions {
///     var screen = Screen()
///     nonisolated init() {}
///     nonisolated static func define(_ step: StepMap<ScreenSteps>) {
///         step.onMainActor.expression("the title is {string}") { steps, title in
///             try expectEqual(steps.screen.title, title)
///         }
///     }
/// }
/// ```
extension StepMap {
    /// The registrar whose closures run on the main actor.
    public var onMainActor: MainActorStepMap<Steps> { MainActorStepMap(map: self) }
}

/// Registers step definitions whose closures run on the main actor; see
/// ``StepMap/onMainActor``.
public struct MainActorStepMap<Steps: StepDefinitions> {
    let map: StepMap<Steps>

    /// Registers a regex pattern whose closure runs on the main actor; see
    /// ``StepMap/callAsFunction(_:file:line:_:)``.
    public func callAsFunction<each Arg: StepArgument>(
        _ pattern: String, file: String = #filePath, line: Int = #line,
        _ body: @escaping @MainActor @Sendable (Steps, repeat each Arg) async throws -> Void
    ) {
        map(pattern, file: file, line: line) { (steps: Steps, arguments: repeat each Arg) in
            try await Self.run(body, steps, repeat each arguments)
        }
    }

    /// Registers a Cucumber Expression whose closure runs on the main
    /// actor; see ``StepMap/expression(_:file:line:_:)``.
    public func expression<each Arg: StepArgument>(
        _ expression: String, file: String = #filePath, line: Int = #line,
        _ body: @escaping @MainActor @Sendable (Steps, repeat each Arg) async throws -> Void
    ) {
        map.expression(expression, file: file, line: line) { (steps: Steps, arguments: repeat each Arg) in
            try await Self.run(body, steps, repeat each arguments)
        }
    }

    /// Registers code to run on the main actor before each story.
    public func before(
        name: String? = nil, tags: String? = nil, file: String = #filePath, line: Int = #line,
        _ body: @escaping @MainActor @Sendable (Steps) async throws -> Void
    ) {
        map.before(name: name, tags: tags, file: file, line: line) { steps in try await Self.run(body, steps) }
    }

    /// Registers code to run on the main actor after each story.
    public func after(
        name: String? = nil, tags: String? = nil, file: String = #filePath, line: Int = #line,
        _ body: @escaping @MainActor @Sendable (Steps) async throws -> Void
    ) {
        map.after(name: name, tags: tags, file: file, line: line) { steps in try await Self.run(body, steps) }
    }

    /// Calls a main-actor closure with the story's instance and arguments.
    /// The instance never leaves its story's task, which waits here: it is
    /// used by one task at a time.
    private static func run<each Arg: StepArgument>(
        _ body: @escaping @MainActor @Sendable (Steps, repeat each Arg) async throws -> Void,
        _ steps: Steps, _ arguments: repeat each Arg
    ) async throws {
        try await call(body, UncheckedBox((steps, (repeat each arguments))))
    }

    @MainActor private static func call<each Arg: StepArgument>(
        _ body: @escaping @MainActor @Sendable (Steps, repeat each Arg) async throws -> Void,
        _ box: UncheckedBox<(Steps, (repeat each Arg))>
    ) async throws {
        let (steps, arguments) = box.value
        try await body(steps, repeat each arguments)
    }
}

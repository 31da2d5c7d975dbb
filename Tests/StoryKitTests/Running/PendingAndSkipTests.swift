import Foundation
import Testing
@testable import StoryKit

/// Steps that are pending, skip, or throw errors that are not expectations.
final class PendingSkipSteps: StepDefinitions {
    nonisolated(unsafe) static var ran: [String] = []
    required init() {}
    static func define(_ step: StepMap<PendingSkipSteps>) {
        step("^a step$") { _ in ran.append("step") }
        step("^a pending step$") { _ in try pending("waiting for the pricing API") }
        step("^a bare pending step$") { _ in try pending() }
        step("^a step that skips$") { _ in try skip("only on macOS") }
        step("^an NSError is thrown$") { _ in throw NSError(domain: "Shop", code: 7) }
        step("^a described NSError is thrown$") { _ in
            throw NSError(domain: "Shop", code: 8, userInfo: [NSLocalizedDescriptionKey: "the till is closed"])
        }
        step("^a localized error is thrown$") { _ in throw CardError() }
        step.before(tags: "@skip-before") { _ in try skip("no printer here") }
        step.after { _ in ran.append("after") }
    }
}

struct CardError: LocalizedError {
    var errorDescription: String? { "the card was declined" }
}

@Suite(.serialized, .timeLimit(.minutes(10))) struct PendingAndSkipTests {
    static func run(_ source: String, strict: Bool = false) async -> (RunSummary, [StoryResult]) {
        PendingSkipSteps.ran = []
        let builder = RegistryBuilder()
        builder.register([PendingSkipSteps.self])
        let (stories, diagnostics) = StoriesParser.parse(source, path: "t.stories")
        #expect(diagnostics.isEmpty)
        var runner = Runner(registry: builder.freeze(), configuration: .init(isStrict: strict), now: { 0 })
        var results: [StoryResult] = []
        let summary = await runner.run(stories) { event in
            if case .storyFinished(let result) = event { results.append(result) }
        }
        return (summary, results)
    }

    @Test("A pending step makes the story pending, skips the rest, still runs after hooks, and fails only under --strict")
    func pendingStory() async throws {
        let (summary, results) = await Self.run("Story: s\nGiven a step\nWhen a pending step\nThen a step")
        let result = try #require(results.first)
        #expect(result.status == .pending)
        #expect(result.steps.map(\.status) == [.passed, .pending, .skipped])
        #expect(result.steps[1].error?.message == "waiting for the pricing API")
        #expect(result.steps[1].error?.location?.file.hasSuffix("PendingAndSkipTests.swift") == true)
        #expect(PendingSkipSteps.ran == ["step", "after"])
        #expect(!summary.hasFailures(strict: false))
        #expect(summary.hasFailures(strict: true))
        #expect(summary.stories == [.pending: 1])
    }

    @Test("A pending step without a reason has no error message, as Cucumber's")
    func barePending() async throws {
        let (_, results) = await Self.run("Story: s\nGiven a bare pending step")
        #expect(results.first?.status == .pending)
        #expect(results.first?.steps.first?.error == nil)
    }

    @Test("skip(_:) from a step skips it and the rest with its reason; the story is skipped and never fails the run")
    func skipFromStep() async throws {
        let (summary, results) = await Self.run("Story: s\nGiven a step\nWhen a step that skips\nThen a step", strict: true)
        let result = try #require(results.first)
        #expect(result.status == .skipped)
        #expect(result.steps.map(\.status) == [.passed, .skipped, .skipped])
        #expect(result.steps[1].error?.message == "only on macOS")
        #expect(PendingSkipSteps.ran == ["step", "after"])
        #expect(!summary.hasFailures(strict: true))
    }

    @Test("skip(_:) from a before hook skips every step; after hooks still run")
    func skipFromHook() async throws {
        let (_, results) = await Self.run("@skip-before\nStory: s\nGiven a step\nThen a step")
        let result = try #require(results.first)
        #expect(result.status == .skipped)
        #expect(result.steps.map(\.status) == [.skipped, .skipped])
        #expect(result.hooks.first?.status == .skipped)
        #expect(result.hooks.first?.error?.message == "no printer here")
        #expect(PendingSkipSteps.ran == ["after"])
    }

    @Test("After skip(_:) even an undefined step is skipped; after a pending step it is still undefined")
    func undefinedAfterSkipAndPending() async throws {
        let (_, skipped) = await Self.run("Story: s\nGiven a step that skips\nThen nobody wrote this")
        #expect(skipped.first?.steps.map(\.status) == [.skipped, .skipped])
        #expect(skipped.first?.status == .skipped)
        let (_, pending) = await Self.run("Story: s\nGiven a pending step\nThen nobody wrote this")
        #expect(pending.first?.steps.map(\.status) == [.pending, .undefined])
        #expect(pending.first?.status == .undefined)
    }

    @Test("A thrown error that is not an expectation shows its description and the definition's Swift line", arguments: [
        ("an NSError is thrown", "NSError: The operation could not be completed. (Shop error 7.) (Shop 7)"),
        ("a described NSError is thrown", "NSError: the till is closed (Shop 8)"),
        ("a localized error is thrown", "CardError: the card was declined"),
    ])
    func errorDescriptions(step: String, message: String) async throws {
        let (_, results) = await Self.run("Story: s\nGiven \(step)")
        let error = try #require(results.first?.steps.first?.error)
        #expect(error.message == message)
        #expect(!error.message.contains("(null)"))
        #expect(error.location?.file.hasSuffix("PendingAndSkipTests.swift") == true)
    }
}

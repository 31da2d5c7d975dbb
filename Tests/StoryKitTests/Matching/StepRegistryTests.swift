import Testing
@testable import StoryKit

final class RegistrySteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<RegistrySteps>) {
        step(".* I should see (.*) in the log") { (_: RegistrySteps, text: String) in }
        step("^I have (\\d+) items$") { (_: RegistrySteps, count: Int) in }
        step("I have") { _ in }
    }
}

final class BadSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<BadSteps>) {
        step("I have (\\d+ items") { (_: BadSteps, count: Int) in }
        step("I have (\\d+) items and (\\d+) boxes") { (_: BadSteps, count: Int) in }
        step("no groups") { (_: BadSteps, count: Int) in }
        step("a table (\\w+)") { (_: BadSteps, name: String, table: DataTable) in }
    }
}

@Suite(.timeLimit(.minutes(10))) struct StepRegistryTests {
    static func registry(_ classes: [any StepDefinitions.Type]) -> (StepRegistry, [Diagnostic]) {
        let builder = RegistryBuilder()
        builder.register(classes)
        return (builder.freeze(), builder.diagnostics)
    }

    static func step(_ keyword: String, _ text: String) -> Step {
        Step(keyword: keyword, kind: .outcome, text: text, location: .init(file: "t.stories", line: 1))
    }

    @Test("A pattern with the keyword serves Then and And alike")
    func keywordInPattern() {
        let (registry, _) = Self.registry([RegistrySteps.self])
        for keyword in ["Then", "And", "but"] {
            let result = registry.matches(Self.step(keyword, "I should see hello in the log"))
            #expect(result.winner?.definition.id == 0)
            #expect(result.winner?.capturedTexts == ["hello"])
        }
    }

    @Test("An anchored pattern matches the text after the keyword, in any case")
    func cucumberStyle() {
        let (registry, _) = Self.registry([RegistrySteps.self])
        let result = registry.matches(Self.step("Given", "I HAVE 3 items"))
        #expect(result.winner?.definition.pattern == "^I have (\\d+) items$")
        #expect(result.winner?.capturedTexts == ["3"])
    }

    @Test("The first registered definition wins and the others are reported")
    func firstMatchWins() {
        let (registry, _) = Self.registry([RegistrySteps.self])
        let result = registry.matches(Self.step("Given", "I have 3 items"))
        #expect(result.matches.map(\.definition.id) == [1, 2])
        #expect(result.isAmbiguous)
        let diagnostic = AmbiguityDiagnostic.make(step: Self.step("Given", "I have 3 items"), result: result, isStrict: false)
        #expect(diagnostic.severity == .warning)
        #expect(diagnostic.help?.contains("\"^I have$\"") == true)
        #expect(diagnostic.notes.count == 2)
    }

    @Test("No match leaves the step undefined")
    func undefined() {
        let (registry, _) = Self.registry([RegistrySteps.self])
        #expect(registry.matches(Self.step("When", "I leave")).isUndefined)
    }

    @Test("Bad patterns are rejected at registration with the Swift file and line")
    func registrationErrors() {
        let (registry, diagnostics) = Self.registry([BadSteps.self])
        #expect(registry.definitions.count == 1)
        #expect(diagnostics.count == 3)
        #expect(diagnostics.allSatisfy { $0.location?.file.hasSuffix("StepRegistryTests.swift") == true })
        #expect(diagnostics.map { $0.location?.line ?? 0 } == [16, 17, 18])
        #expect(diagnostics[0].problem.hasPrefix("step pattern \"I have (\\d+ items\" does not compile"))
        #expect(diagnostics[1].problem == "step pattern \"I have (\\d+) items and (\\d+) boxes\" has 2 capture groups but its closure takes 1 argument after the step class")
        #expect(diagnostics[2].problem.contains("has 0 capture groups but its closure takes 1 argument"))
    }

    @Test("The cache gives the same answers as trying every definition")
    func cacheParity() {
        let (registry, _) = Self.registry([RegistrySteps.self])
        var matcher = CachingMatcher(registry: registry)
        let steps = ["I have 3 items", "I should see x in the log", "nothing", "I have 3 items", "i have 3 ITEMS"]
            .map { Self.step("Then", $0) }
        for step in steps + steps {
            #expect(matcher.matches(step).matches.map(\.definition.id) == registry.matches(step).matches.map(\.definition.id))
        }
    }

    @Test("The cache steps aside when lines never repeat, and the answers stay the same")
    func cacheStepsAside() {
        let (registry, _) = Self.registry([RegistrySteps.self])
        var matcher = CachingMatcher(registry: registry)
        for count in 0..<(CachingMatcher.sampleSize + 10) {
            let step = Self.step("Given", "I have \(count) items")
            #expect(matcher.matches(step).winner?.capturedTexts == ["\(count)"])
        }
        #expect(!matcher.isCaching)
        var repeating = CachingMatcher(registry: registry)
        for count in 0..<(CachingMatcher.sampleSize + 10) { _ = repeating.matches(Self.step("Given", "I have \(count % 10) items")) }
        #expect(repeating.isCaching)
    }
}

/// A step library whose wording a user's step shares, for
/// ``StepLibraryPrefixTests``; only that suite lists it.
final class ServiceLibrary: StepLibrary {
    required init() {}
    static func define(_ step: StepMap<ServiceLibrary>) {
        step(#"^the (\w[\w-]*) service is running$"#) { (_: ServiceLibrary, _: String) in }
        step.expression("the {word} service answers {int}") { (_: ServiceLibrary, _: String, _: Int) in }
        step("service (.+) stopped") { (_: ServiceLibrary, _: String) in }
    }
}

final class ConversionSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<ConversionSteps>) {
        step("^the conversion service is running$") { (_: ConversionSteps) in }
    }
}

@Suite(.timeLimit(.minutes(10))) struct StepLibraryPrefixTests {
    static func step(_ text: String) -> Step {
        Step(keyword: "Given", kind: .context, text: text, location: .init(file: "f", line: 1))
    }

    @Test("A library listed with prefixed(_:) matches only lines with its prefix, so a user's own wording is not ambiguous")
    func prefixedLibrary() throws {
        let plain = RegistryBuilder()
        plain.register([ConversionSteps.self, ServiceLibrary.self])
        #expect(plain.freeze().matches(Self.step("the conversion service is running")).isAmbiguous)

        let builder = RegistryBuilder()
        builder.register([ConversionSteps.self, ServiceLibrary.prefixed("lib (v2): ")])
        let registry = builder.freeze()
        #expect(builder.diagnostics.isEmpty, "\(builder.diagnostics)")
        let mine = registry.matches(Self.step("the conversion service is running"))
        #expect(!mine.isAmbiguous && mine.winner?.definition.ownerName == "ConversionSteps")
        let library = registry.matches(Self.step("lib (v2): the rates service is running"))
        #expect(library.winner?.definition.ownerName == "ServiceLibrary" && library.winner?.capturedTexts == ["rates"])
        #expect(registry.matches(Self.step("lib (v2): the rates service answers 200")).winner?.definition.pattern
            == #"lib \(v2\): the {word} service answers {int}"#)
        #expect(registry.matches(Self.step("lib (v2): so service x stopped")).winner?.capturedTexts == ["x"])
        #expect(registry.matches(Self.step("the rates service answers 200")).isUndefined)
        #expect(registry.matches(Self.step("so service x stopped")).isUndefined)
    }
}

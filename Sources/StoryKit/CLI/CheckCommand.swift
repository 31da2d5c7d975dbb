/// `storyrun check`: matches every step of the stories without running any,
/// and lists undefined steps, ambiguous steps and unused definitions.
enum CheckCommand {
    /// Runs the check; exits 1 when a step is undefined or ambiguous.
    static func run(paths: [String], registry: StepRegistry, style: TextStyle, output: (String) -> Void) -> ExitStatus {
        var matcher = CachingMatcher(registry: registry)
        var isUsed = Array(repeating: false, count: registry.definitions.count)
        var undefined = 0, ambiguous = 0, rejected = 0
        var snippets: [Snippet] = []
        let (files, pathDiagnostics) = StoryLoader.files(at: paths)
        for diagnostic in pathDiagnostics { output(diagnostic.rendered(style: style)) }
        rejected += pathDiagnostics.count
        for file in files {
            let (stories, diagnostics) = StoryLoader.parseFile(at: file)
            for diagnostic in diagnostics { output(diagnostic.rendered(style: style)) }
            rejected += diagnostics.filter(\.isError).count
            for step in stories.flatMap(\.steps) {
                let result = matcher.matches(step)
                if let winner = result.winner { isUsed[winner.definition.id] = true }
                if result.isUndefined {
                    undefined += 1
                    output("\(step.location.displayFileAndLine): \(style.paint("undefined:", .yellow)) \(step.line)")
                    let snippet = Snippet(for: step)
                    if !snippets.contains(snippet) { snippets.append(snippet) }
                } else if result.isAmbiguous {
                    ambiguous += 1
                    output(AmbiguityDiagnostic.make(step: step, result: result, isStrict: true).rendered(style: style))
                }
            }
        }
        let unused = registry.definitions.filter { !isUsed[$0.id] }
        for definition in unused {
            output("\(definition.location.displayFileAndLine): \(style.paint("unused:", .gray)) no step runs \"\(definition.pattern)\"")
        }
        if !snippets.isEmpty {
            output("")
            output("Define the undefined steps with these snippets in a step class:")
            for snippet in snippets { output(""); output(snippet.code()) }
        }
        output("")
        output("check: \(undefined) undefined, \(ambiguous) ambiguous, \(unused.count) unused")
        if rejected > 0 { return .inputError }
        return undefined + ambiguous > 0 ? .storyFailed : .success
    }
}

/// Compiles a ``GherkinDocument`` into ``Pickle``s, as Cucumber's compiler
/// does: backgrounds prepended, outlines expanded row by row, tags inherited.
struct PickleCompiler {
    private var nextID: Int
    private var pickles: [Pickle] = []
    private let uri: String
    private let language: String

    private init(uri: String, language: String, firstID: Int) {
        self.uri = uri
        self.language = language
        nextID = firstID
    }

    /// Compiles a document; ids continue from `firstID` (the parser's next id).
    static func compile(_ document: GherkinDocument, uri: String, firstID: Int) -> [Pickle] {
        guard let feature = document.feature else { return [] }
        var compiler = PickleCompiler(uri: uri, language: feature.language, firstID: firstID)
        feature.forEachScenario { scenario, tags, background in
            compiler.compile(scenario, tags: tags, background: background)
        }
        return compiler.pickles
    }

    private mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    private mutating func compile(_ scenario: GherkinScenario, tags: [GherkinTag], background: [GherkinStep]) {
        guard !scenario.examples.isEmpty else {
            var steps: [Pickle.Step] = []
            if !scenario.steps.isEmpty {
                var last = GherkinStep.KeywordType.unknown
                steps.reserveCapacity(background.count + scenario.steps.count)
                for step in background {
                    steps.append(makeStep(step, last: &last, row: nil))
                }
                for step in scenario.steps {
                    steps.append(makeStep(step, last: &last, row: nil))
                }
            }
            pickles.append(Pickle(
                id: makeID(), uri: uri, name: scenario.name, language: language, location: scenario.location,
                tags: (tags + scenario.tags).map(Self.pickleTag), steps: steps, astNodeIDs: [scenario.id]))
            return
        }
        for examples in scenario.examples {
            guard let header = examples.tableHeader else { continue }
            let names = header.cells
            for row in examples.tableBody {
                let values = (names, row.cells)
                var steps: [Pickle.Step] = []
                if !scenario.steps.isEmpty {
                    var last = GherkinStep.KeywordType.unknown
                    for step in background {
                        steps.append(makeStep(step, last: &last, row: nil))
                    }
                    for step in scenario.steps {
                        steps.append(makeStep(step, last: &last, row: (row.id, values.0, values.1)))
                    }
                }
                pickles.append(Pickle(
                    id: makeID(), uri: uri,
                    name: Self.interpolate(scenario.name, values.0, values.1), language: language,
                    location: row.location,
                    tags: (tags + scenario.tags + examples.tags).map(Self.pickleTag), steps: steps,
                    astNodeIDs: [scenario.id, row.id]))
            }
        }
    }

    private mutating func makeStep(
        _ step: GherkinStep, last: inout GherkinStep.KeywordType,
        row: (id: Int, names: [String], values: [String])?
    ) -> Pickle.Step {
        last = step.keywordType.resolved(after: last)
        let names = row?.names ?? []
        let values = row?.values ?? []
        let type: Pickle.Step.StepType =
            switch last {
            case .context: .context
            case .action: .action
            case .outcome: .outcome
            case .conjunction, .unknown: .unknown
            }
        let docString = step.docString.map {
            Pickle.Step.DocString(
                content: Self.interpolate($0.content, names, values),
                mediaType: $0.mediaType.map { Self.interpolate($0, names, values) })
        }
        let dataTable = step.dataTable.map {
            $0.rows.map { $0.map { Self.interpolate($0, names, values) } }
        }
        return Pickle.Step(
            id: makeID(), astNodeIDs: row.map { [step.id, $0.id] } ?? [step.id], type: type,
            text: Self.interpolate(step.text, names, values), docString: docString, dataTable: dataTable,
            source: step)
    }

    /// Replaces each `<name>` with the row's value, one column after another.
    static func interpolate(_ text: String, _ names: [String], _ values: [String]) -> String {
        guard !names.isEmpty, text.utf8.contains(UInt8(ascii: "<")) else { return text }
        var result = text
        for (name, value) in zip(names, values) {
            result = result.replacingAll("<" + name + ">", with: value)
        }
        return result
    }

    private static func pickleTag(_ tag: GherkinTag) -> Pickle.Tag {
        Pickle.Tag(name: tag.name, astNodeID: tag.id)
    }
}

import Testing

extension CucumberExpressionsTests {
    @Suite(.timeLimit(.minutes(10)), .conformance("cucumber-expressions")) struct ConformanceCaseTests {
        @Test(
            "Every stage of the official conformance data is present",
            arguments: [
                ("cucumber-expression/tokenizer", 16), ("cucumber-expression/parser", 28),
                ("cucumber-expression/transformation", 8), ("cucumber-expression/matching", 65),
                ("regular-expression/matching", 3),
            ])
        func stageIsComplete(stage: String, count: Int) {
            let cases = ConformanceCase.all(in: stage)
            #expect(cases.count == count)
            #expect(cases.allSatisfy { $0.json != .null })
        }
    }
}

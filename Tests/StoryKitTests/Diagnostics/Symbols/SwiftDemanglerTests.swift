import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct SwiftDemanglerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var id: String
        var symbol: String
        var short: String
        var testDescription: String { id }
    }

    @Test(
        "A mangled name becomes the short name a Swift trace shows",
        arguments: [
            Case(
                id: "an async step closure",
                symbol: "$s13StoryrunSteps05FaultB0C6defineyy8StoryKit7StepMapCyACGFZyAC_SStYaYbcfU36_TY0_",
                short: "closure #38 in static FaultSteps.define(_:)"),
            Case(
                id: "a standard library function with labels",
                symbol: "$ss17_assertionFailure__4file4line5flagss5NeverOs12StaticStringV_SSAHSus6UInt32VtF",
                short: "_assertionFailure(_:_:file:line:flags:)"),
            Case(
                id: "a private function, its file's discriminator left out",
                symbol: "$s8StoryKit7PatternV6reason33_1EFF784662B5A6DC6A9E39CE3BFFF017LL3forSSs5Error_p_tFZ",
                short: "static Pattern.reason(for:)"),
            Case(
                id: "a private property's getter, its type left out",
                symbol: "$s8StoryKit18LiveStatusReporterV11currentFile33_8CC66F2BFCF2297F364109BDEE00ACBELLSSvg",
                short: "LiveStatusReporter.currentFile.getter"),
            Case(id: "a C function", symbol: "backtrace_symbols_fd", short: "backtrace_symbols_fd"),
            Case(id: "not a valid mangling", symbol: "$sZZZ", short: "$sZZZ"),
        ])
    func shortName(_ example: Case) {
        #expect(SwiftDemangler.shortName(example.symbol) == example.short)
    }

    @Test("The module of a mangled name, Swift for the standard library's")
    func module() {
        #expect(SwiftDemangler.module(of: "$s13StoryrunSteps05FaultB0C6defineyy") == "StoryrunSteps")
        #expect(SwiftDemangler.module(of: "$s8StoryKit6RunnerV3runyyF") == "StoryKit")
        #expect(SwiftDemangler.module(of: "$ss17_assertionFailure") == "Swift")
        #expect(SwiftDemangler.module(of: "$sSa9subscriptyxSicig") == "Swift")
        #expect(SwiftDemangler.module(of: "main") == nil)
        #expect(SwiftDemangler.module(of: "$s99Short") == nil)
    }
}

import Foundation
import Testing
@testable import StoryKit

/// A crashed worker's output, its trace made readable, and the frame in
/// the user's own code named.
@Suite(.timeLimit(.minutes(10))) struct CrashReportTests {
    @Test("A frame of this test binary in either form of trace comes to name its function and file:line", .enabled(if: Oracle.has("readelf"), "needs readelf"))
    func crashReportOfThisBinary() throws {
        let binary = Oracle.testBinary
        let function = try #require(try Oracle.functions(in: binary).first { $0.name == "$s13StoryKitTests6OracleO4path2ofSSSgSS_tFZ" })
        let offset = function.address + function.size / 2
        let hex = String(offset, radix: 16)
        let trace = """
            Fatal error: on purpose
            Current stack trace:
            \(binary)(+0x\(hex))[0x55e400000000]
            1    \(binary.split(separator: "/").last!)    0x000055e400000000 <unavailable> + \(offset + 1)
            /lib/x86_64-linux-gnu/libc.so.6(+0x3c050)[0x7f990ba81050]
            """
        let printed = [Attachment(body: trace, encoding: .identity, mediaType: Attachment.logMediaType, name: "output")]
        let report = CrashReport.reading(printed, symbolizer: Symbolizer(path: binary))
        let lines = report.printed[0].body.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[2].contains("(static Oracle.path(of:)+0x"), "\(lines[2])")
        #expect(lines[3].contains(" static Oracle.path(of:) + \(function.size / 2 + 1) at "), "\(lines[3])")
        #expect(lines[2].contains("Tests/StoryKitTests/Diagnostics/Symbols/Oracle.swift:"), "\(lines[2])")
        #expect(lines[4] == "/lib/x86_64-linux-gnu/libc.so.6(+0x3c050)[0x7f990ba81050]")
        let location = try #require(lines[2].split(separator: " at ").last)
        #expect(report.site == "at \(location) (in static Oracle.path(of:))")
    }

    @Test("The user's code is a Swift function of any module but StoryKit's and the toolchain's")
    func userCode() {
        #expect(CrashReport.isUserCode("$s13StoryrunSteps05FaultB0C6defineyy8StoryKit7StepMapCyACGFZyAC_SStYaYbcfU36_TY0_"))
        #expect(CrashReport.isUserCode("$s8TodoList5StoreC3addyySSF"))
        #expect(!CrashReport.isUserCode("$s8StoryKit10CrashTraceO6handle33_8BEB7DA4D12CACF1FA31CBA10F064CFBLLyys5Int32VFZ"))
        #expect(!CrashReport.isUserCode("$sSa9subscriptyxSicig"))
        #expect(!CrashReport.isUserCode("$ss17_assertionFailure__4file4line5flagss5NeverOs12StaticStringV_SSAHSus6UInt32VtF"))
        #expect(!CrashReport.isUserCode("main"))
    }

    @Test("Output with no trace, or a trace of other modules only, is left as it was, with no site")
    func noFramesOfTheExecutable() {
        let body = "Fatal error: on purpose\nCurrent stack trace:\n/lib/x86_64-linux-gnu/libc.so.6(+0x3c050)[0x7f990ba81050]\n"
        let printed = [Attachment(body: body, encoding: .identity, mediaType: Attachment.logMediaType, name: "output")]
        let report = CrashReport.reading(printed, symbolizer: Symbolizer(path: "/nonexistent/storyrun"))
        #expect(report.printed == printed)
        #expect(report.site == nil)
    }
}

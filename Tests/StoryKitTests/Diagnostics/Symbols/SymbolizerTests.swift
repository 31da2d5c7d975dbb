import Foundation
import Testing
@testable import StoryKit

/// The ELF and DWARF readers against binutils, on this test process's own
/// executable and on small C programs: the same functions, files and lines.
@Suite(.timeLimit(.minutes(10))) struct SymbolizerTests {
    /// Every `count`th function of a binary's symbol table, spread over it.
    static func sample(_ functions: [Oracle.Function], count: Int) -> [Oracle.Function] {
        let step = max(functions.count / count, 1)
        return stride(from: 0, to: functions.count, by: step).map { functions[$0] }
    }

    @Test("The function holding an address is one readelf lists there", .enabled(if: Oracle.has("readelf"), "needs readelf"))
    func functionsMatchReadelf() throws {
        let binary = Oracle.testBinary
        let functions = try Oracle.functions(in: binary)
        try #require(functions.count > 1000, "readelf found \(functions.count) functions in \(binary)")
        let elf = try ELFFile.mapping(binary).get()
        let picked = Self.sample(functions, count: 60)
        let found = elf.functions(containing: picked.map { $0.address + $0.size / 2 })
        for function in picked {
            // Aliases share an address: any of their names will do.
            let names = functions.filter { $0.address == function.address && $0.size == function.size }.map(\.name)
            let symbol = found[function.address + function.size / 2]
            #expect(symbol.map { names.contains($0.name) } == true, "\(function.name): found \(String(describing: symbol))")
            #expect(symbol?.address == function.address)
        }
    }

    @Test("The file and line of an address are the ones addr2line gives", .enabled(if: Oracle.has("readelf", "addr2line"), "needs readelf and addr2line"))
    func linesMatchAddr2line() throws {
        let binary = Oracle.testBinary
        let picked = Self.sample(try Oracle.functions(in: binary), count: 200)
        let addresses = picked.map { $0.address + $0.size / 2 }
        let expected = try Oracle.lines(of: addresses, in: binary)
        try #require(expected.count == addresses.count)
        let elf = try ELFFile.mapping(binary).get()
        let lines = try #require(DWARFLineTable(elf)).lines(of: addresses)
        var compared = 0
        for (address, oracle) in zip(addresses, expected) where oracle.line > 0 {
            compared += 1
            #expect(lines[address] == DWARFLineTable.Line(file: oracle.file, line: oracle.line), "0x\(String(address, radix: 16))")
        }
        // Thunks and other compiler-made code have no line.
        #expect(compared >= 40, "addr2line knew the line of only \(compared) of \(addresses.count) addresses")
    }

    @Test(
        "A C program's function and line are addr2line's, in DWARF 5 and in DWARF 4 loaded at a fixed address (no PIE)",
        .enabled(if: Oracle.has("clang", "readelf", "addr2line"), "needs clang, readelf and addr2line"),
        arguments: [["-gdwarf-5"], ["-gdwarf-4", "-fno-pie", "-no-pie"]])
    func cProgram(flags: [String]) throws {
        let folder = try Binary.temporaryFolder("symbols")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = """
            #include <stdio.h>
            static int twice(int x) {
                int doubled = x * 2;
                return doubled;
            }
            int main(int argc, char **argv) {
                printf("%d\\n", twice(argc));
                return 0;
            }
            """
        try Data(source.utf8).write(to: URL(fileURLWithPath: folder + "/program.c"))
        _ = try Oracle.run("clang", ["-g", "-O0"] + flags + ["-o", folder + "/program", folder + "/program.c"])
        let binary = folder + "/program"
        let functions = try Oracle.functions(in: binary).filter { ["twice", "main"].contains($0.name) }
        try #require(functions.count == 2, "clang did not build the program")
        let loadAddress: UInt64 = flags.contains("-no-pie") ? 0x40_0000 : 0
        let symbolizer = Symbolizer(path: binary)
        for function in functions {
            // Offsets from the load base, as a stack trace prints them.
            let addresses = stride(from: function.address, to: function.address + function.size, by: 3).map { $0 }
            let expected = try Oracle.lines(of: addresses, in: binary)
            let places = symbolizer.places(atOffsets: addresses.map { $0 - loadAddress })
            for (address, oracle) in zip(addresses, expected) {
                let place = places[address - loadAddress]
                #expect(place?.symbol == function.name)
                #expect(place?.offsetInFunction == address - function.address)
                if oracle.line > 0 {
                    #expect(place?.line == DWARFLineTable.Line(file: oracle.file, line: oracle.line), "\(function.name) + \(address - function.address)")
                }
            }
        }
    }
}

import Foundation
import Testing
@testable import StoryKit

/// The symbol readers on files that are not what they claim: truncated,
/// random, garbled. The parent reads a crashed worker's executable, which
/// anything may have replaced: it gets less detail, never a crash or a hang.
@Suite(.timeLimit(.minutes(10))) struct SymbolsGarbageTests {
    /// A generator of the same pseudo-random bytes on every run.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }

    static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix(state: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// An ELF header that claims `count` section headers right after it.
    static func header(sections count: UInt16) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 64)
        bytes.replaceSubrange(0..<6, with: [0x7F, 0x45, 0x4C, 0x46, 2, 1])
        bytes[0x28] = 64  // section headers at 64
        bytes[0x3A] = 64  // of 64 bytes each
        bytes[0x3C] = UInt8(count & 0xFF)
        bytes[0x3D] = UInt8(count >> 8)
        bytes[0x3E] = 1  // names in section 1
        return bytes
    }

    static func symbolize(_ bytes: [UInt8], in folder: String, _ name: String) throws -> [UInt64: Symbolizer.Place] {
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return Symbolizer(path: path).places(atOffsets: [0, 1, 0x1000, 0x4E_8DED, .max])
    }

    @Test("Empty, short, random and half-ELF files give no places")
    func garbageFiles() throws {
        let folder = try Binary.temporaryFolder("symbols")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try Self.symbolize([], in: folder, "empty").isEmpty)
        #expect(try Self.symbolize([0x7F, 0x45, 0x4C, 0x46], in: folder, "magic").isEmpty)
        for seed: UInt64 in 1...8 {
            _ = try Self.symbolize(Self.randomBytes(65_536, seed: seed), in: folder, "random")
            _ = try Self.symbolize(Self.header(sections: 0xFFFF) + Self.randomBytes(65_536, seed: seed), in: folder, "garbled")
            _ = try Self.symbolize(Self.header(sections: 12) + Self.randomBytes(12 * 64 + 4096, seed: seed), in: folder, "sections")
        }
        #expect(Symbolizer(path: folder).places(atOffsets: [1]).isEmpty)
        #expect(Symbolizer(path: folder + "/missing").places(atOffsets: [1]).isEmpty)
        guard case .failure(.unreadable) = ELFFile.mapping(folder + "/missing") else {
            Issue.record("a missing file is unreadable")
            return
        }
    }

    @Test("A truncated copy of a real binary gives no places and no crash")
    func truncatedBinary() throws {
        let folder = try Binary.temporaryFolder("symbols")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let whole = try Data(contentsOf: URL(fileURLWithPath: Oracle.testBinary))
        for length in [63, 64, 65, 4096, whole.count / 3, whole.count - 1] {
            _ = try Self.symbolize([UInt8](whole.prefix(length)), in: folder, "truncated")
        }
    }

    @Test("Line tables with bytes garbled at random read without a crash or a hang")
    func garbledLineTable() throws {
        let elf = try ELFFile.mapping(Oracle.testBinary).get()
        let section = try #require(elf.section(named: ".debug_line"))
        // A slice keeps the test quick in a debug build.
        let original = [UInt8](section.bytes.prefix(200_000))
        var generator = SplitMix(state: 42)
        for round in 0..<12 {
            var bytes = original
            for _ in 0..<(round + 1) * 20 {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if round == 11 { bytes = Self.randomBytes(100_000, seed: 7) }
            bytes.withUnsafeBytes { buffer in
                _ = DWARFLineTable(lines: buffer).lines(of: [0, 0x1000, 0x4E_8DED, .max])
            }
        }
    }

    @Test("A cursor reads nothing past its end and says so", arguments: [0, 1, 3, 7, 9])
    func cursorBounds(count: Int) {
        let bytes = [UInt8](repeating: 0xFF, count: count)
        bytes.withUnsafeBytes { buffer in
            var cursor = ByteCursor(buffer)
            _ = cursor.u64()
            _ = cursor.uleb()
            _ = cursor.sleb()
            #expect(cursor.cString() == nil)
            #expect(cursor.isAtEnd)
            #expect(cursor.isBroken)
        }
    }
}

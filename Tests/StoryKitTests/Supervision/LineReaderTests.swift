#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import StoryKit

/// A worker reads its requests with a ``LineReader``; a long story's
/// request is one line of many megabytes that arrives a pipe's worth at a
/// time. The search for its end goes through each byte once: before, it
/// started again from the line's start at each read (a 60 MB line, time
/// growing with its square).
@Suite(.timeLimit(.minutes(10))) struct LineReaderTests {
    /// Writes `lines` to a pipe in writes of `chunk` bytes on a thread of
    /// its own, and reads them back with a reader.
    static func readBack(_ lines: [[UInt8]], chunk: Int) -> (lines: [[UInt8]], searched: Int, total: Int) {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let bytes: [UInt8] = lines.flatMap { $0 + [UInt8(0x0A)] }
        let writeEnd = ends[1]
        let writer = Thread {
            var offset = 0
            while offset < bytes.count {
                let count = min(chunk, bytes.count - offset)
                let written = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress! + offset, count) }
                guard written > 0 else { break }
                offset += written
            }
            close(writeEnd)
        }
        writer.start()
        var reader = LineReader(descriptor: ends[0])
        var read: [[UInt8]] = []
        while let line = reader.nextLine({ Array($0) }) { read.append(line) }
        close(ends[0])
        return (read, reader.searchedBytes, bytes.count)
    }

    @Test func aLongLineIsSearchedOnce() {
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 8 << 20)
        let lines = [Array("F\tfirst".utf8), long, Array("S\tlast".utf8), []]
        let (read, searched, total) = Self.readBack(lines, chunk: 4096)
        #expect(read == lines)
        // Each byte once, and a read's worth again at most.
        #expect(searched <= total + 65_536, "searched \(searched) bytes for \(total)")
    }

    @Test func shortLinesComeWholeAcrossReads() {
        let lines = (0..<20_000).map { Array("line \($0) \(String(repeating: "x", count: $0 % 37))".utf8) }
        let (read, searched, total) = Self.readBack(lines, chunk: 1000)
        #expect(read == lines)
        #expect(searched <= total + 65_536, "searched \(searched) bytes for \(total)")
    }
}

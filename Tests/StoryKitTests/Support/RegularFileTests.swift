import Foundation
import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct RegularFileTests {
    @Test("Only regular files are read; FIFOs, sockets, devices and folders are refused without blocking")
    func refusals() throws {
        let folder = try Binary.temporaryFolder("regular-file")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "Story: x\n".write(toFile: folder + "/good.stories", atomically: false, encoding: .utf8)
        symlink("good.stories", folder + "/link.stories")
        #expect(mkfifo(folder + "/fifo.stories", 0o644) == 0)
        let socketPath = folder + "/socket.stories"
        let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(server) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in socketPath.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        let start = Date()
        #expect(try RegularFile.read(at: folder + "/good.stories").get() == Array("Story: x\n".utf8))
        #expect(try RegularFile.read(at: folder + "/link.stories").get() == Array("Story: x\n".utf8))
        #expect(RegularFile.read(at: folder + "/fifo.stories") == .failure(.notRegular(kind: "a FIFO (named pipe)")))
        if bound == 0 {
            #expect(RegularFile.read(at: socketPath) == .failure(.notRegular(kind: "a socket")))
        }
        #expect(RegularFile.read(at: "/dev/zero") == .failure(.notRegular(kind: "a character device")))
        #expect(RegularFile.read(at: folder) == .failure(.notRegular(kind: "a folder")))
        guard case .failure(.cannotOpen) = RegularFile.read(at: folder + "/missing") else {
            Issue.record("a missing file is read")
            return
        }
        #expect(Date().timeIntervalSince(start) < 5)
        guard case .failure(let diagnostic) = StoryLoader.readText(at: folder + "/fifo.stories") else {
            Issue.record("a FIFO is read")
            return
        }
        #expect(diagnostic.problem.contains("fifo.stories is a FIFO (named pipe), not a regular file"))
    }

    @Test("Every byte is read whatever the size: empty, a byte, a page, a megabyte and more, and files whose size says 0 (/proc)")
    func sizes() throws {
        let folder = try Binary.temporaryFolder("regular-file")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for size in [0, 1, 4095, 4096, 4097, 1 << 20, (1 << 20) + 3] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/\(size).bin"))
            #expect(try RegularFile.read(at: folder + "/\(size).bin").get() == bytes, "\(size) bytes")
        }
        // Its size is 0 and it has text: read until the end, not the size.
        let status = try RegularFile.read(at: "/proc/self/status").get()
        #expect(String(decoding: status, as: UTF8.self).contains("Pid:"))
    }

    @Test("A FIFO named *.stories, given or found in a folder, never blocks run, check, --dry-run or pickles")
    func fifoThroughTheCommandLine() async throws {
        let folder = try Binary.temporaryFolder("fifo-cli")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/dir", withIntermediateDirectories: true)
        #expect(mkfifo(folder + "/x.stories", 0o644) == 0)
        #expect(mkfifo(folder + "/dir/y.feature", 0o644) == 0)
        try FileManager.default.copyItem(
            atPath: Golden.fixture("stories/good/basket.stories"), toPath: folder + "/dir/basket.stories")
        for arguments in [
            ["x.stories"], ["dir"], ["--jobs", "2", "x.stories"], ["--in-process", "dir"], ["check", "x.stories"], ["check", "dir"], ["--dry-run", "dir"],
            ["--format", "pickles", "x.stories"], ["--format", "pickles", "dir"],
            ["@x.stories"],
        ] {
            let outcome = try await Binary.run(arguments, in: folder, timeout: 20)
            #expect(!outcome.isTimedOut, "\(arguments) hung")
            #expect(outcome.status == 2 && !outcome.isSignaled, "\(arguments): \(outcome.status)")
            #expect(outcome.output.contains("not a regular file"), "\(arguments): \(outcome.output)")
        }
    }
}

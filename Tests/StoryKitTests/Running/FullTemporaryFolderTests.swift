import Foundation
import Testing
@testable import StoryKit

/// A step that prints while the temporary folder (where a worker's output
/// goes) is full: the crash says the disk is full.
@Suite(.timeLimit(.minutes(10))) struct FullTemporaryFolderTests {
    @Test("The note names the folder and says it is full; a disk with room gives none")
    func note() throws {
        let descriptor = try #require(Descriptors.temporaryFile("space-test"))
        defer { close(descriptor) }
        #expect(CaptureSpace.note(forCaptureFile: descriptor, folder: "/some/tmp", fullBelow: 0) == nil)
        let note = try #require(CaptureSpace.note(forCaptureFile: descriptor, folder: "/some/tmp", fullBelow: .max))
        #expect(note.name == CaptureSpace.noteName)
        #expect(note.body.hasPrefix("the temporary folder /some/tmp (TMPDIR), where storyrun keeps what steps print, is full ("))
        #expect(note.body.contains("set TMPDIR to a folder on a disk with room"))
    }

    /// Before, the story said only "crashed with signal 4 (SIGILL …)".
    /// Needs root, to mount a tiny tmpfs (and unmount it after).
    @Test("A printing step that crashes on a full TMPDIR is reported with the disk full", .enabled(if: getuid() == 0, "needs root to mount a tmpfs"))
    func fullTemporaryFolder() async throws {
        let folder = try Binary.temporaryFolder("full-tmp")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let disk = folder + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        let mounted = try await Binary.run(["-c", "mount -t tmpfs -o size=64k tmpfs disk"], in: folder, executable: "/bin/sh")
        try #require(mounted.status == 0, "cannot mount a tmpfs: \(mounted.errorOutput)")
        defer { _ = try? Binary.run(["-c", "umount disk"], in: folder, executable: "/bin/sh") }
        // Filled up (dd stops at the end of the disk).
        _ = try await Binary.run(["-c", "dd if=/dev/zero of=disk/fill bs=4k count=100"], in: folder, executable: "/bin/sh")
        try Data("Story: prints\n  Given the step prints \"hello\" and \"oops\" to its error output\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/p.stories"))
        let outcome = try await Binary.run(
            ["p.stories"], in: folder, timeout: 40, environment: ["STORYRUN_FIXTURE_STEPS": "faults", "TMPDIR": disk])
        #expect(outcome.status == 1, "\(outcome.output)")
        #expect(outcome.output.contains("the temporary folder \(disk) (TMPDIR), where storyrun keeps what steps print, is full (No space left on device"),
                "\(outcome.output)")
    }
}

import Foundation
import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct ReportFileTests {
    /// A temporary folder, removed when the test ends.
    final class Folder {
        let path: String
        init() throws { path = try Binary.temporaryFolder("report-file") }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
        func text(_ name: String) -> String? { try? String(contentsOfFile: path + "/" + name, encoding: .utf8) }
        func kind(_ name: String) -> mode_t {
            var status = stat()
            return lstat(path + "/" + name, &status) == 0 ? status.st_mode & S_IFMT : 0
        }
    }

    /// Before, the temporary file had its name from the start: a run killed
    /// while it wrote (SIGKILL, a second Ctrl-C) left a hidden file of up to
    /// the whole report beside the path, run after run.
    @Test("A regular file is written in chunks to a file with no name, named whole, then renamed over the path")
    func streaming() throws {
        let folder = try Folder()
        let file = try ReportFile(path: folder.path + "/r.xml")
        try file.write("<a>")
        try file.write("</a>\n")
        #expect(folder.names.isEmpty, "\(folder.names)")
        try file.prepare()
        #expect(folder.names.count == 1 && folder.names[0].hasPrefix(".r.xml.tmp-"), "\(folder.names)")
        #expect(folder.text("r.xml") == nil)
        try file.publish()
        #expect(folder.names == ["r.xml"])
        #expect(folder.text("r.xml") == "<a></a>\n")
    }

    @Test("A report given up while it is written leaves nothing beside the path")
    func abortWhileWriting() throws {
        let folder = try Folder()
        let file = try ReportFile(path: folder.path + "/r.xml")
        try file.write(String(repeating: "x", count: 1 << 20))
        file.abort()
        #expect(folder.names.isEmpty, "\(folder.names)")
    }

    @Test("Abort removes the temporary file and leaves the old report as it was")
    func abort() throws {
        let folder = try Folder()
        try AtomicFile.write("old", to: folder.path + "/r.txt")
        let file = try ReportFile(path: folder.path + "/r.txt")
        try file.write("new")
        file.abort()
        #expect(folder.names == ["r.txt"])
        #expect(folder.text("r.txt") == "old")
    }

    @Test("Temporary names are unpredictable and a symlink planted at the old name is never followed")
    func plantedSymlink() throws {
        let folder = try Folder()
        try "victim".write(toFile: folder.path + "/victim", atomically: false, encoding: .utf8)
        let pid = ProcessInfo.processInfo.processIdentifier
        symlink(folder.path + "/victim", folder.path + "/r.txt.tmp-\(pid)")
        let first = try ReportFile(path: folder.path + "/r.txt")
        let second = try ReportFile(path: folder.path + "/r.txt")
        try first.prepare()
        try second.prepare()
        #expect(Set(folder.names).count == 4, "\(folder.names)")
        first.abort()
        second.abort()
        #expect(Set(folder.names).count == 2, "\(folder.names)")
        try AtomicFile.write("report", to: folder.path + "/r.txt")
        #expect(folder.text("victim") == "victim")
        #expect(folder.text("r.txt") == "report")
    }

    @Test("An existing report keeps its permissions; a new one gets 0644 less the umask")
    func permissions() throws {
        let folder = try Folder()
        try AtomicFile.write("one", to: folder.path + "/r.txt")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.path + "/r.txt")
        #expect(((attributes[.posixPermissions] as? Int) ?? 0) & ~0o644 == 0)
        chmod(folder.path + "/r.txt", 0o600)
        try AtomicFile.write("two", to: folder.path + "/r.txt")
        let after = try FileManager.default.attributesOfItem(atPath: folder.path + "/r.txt")
        #expect(after[.posixPermissions] as? Int == 0o600)
    }

    @Test("A symlinked report path stays a symlink; its target (even one not there yet) is written")
    func symlinks() throws {
        let folder = try Folder()
        try FileManager.default.createDirectory(atPath: folder.path + "/out", withIntermediateDirectories: true)
        try "old".write(toFile: folder.path + "/out/real.xml", atomically: false, encoding: .utf8)
        symlink("out/real.xml", folder.path + "/link.xml")
        symlink("link.xml", folder.path + "/link2.xml")
        try AtomicFile.write("new", to: folder.path + "/link2.xml")
        #expect(folder.kind("link.xml") == S_IFLNK && folder.kind("link2.xml") == S_IFLNK)
        #expect(folder.text("out/real.xml") == "new")
        symlink("out/later.xml", folder.path + "/dangling.xml")
        try AtomicFile.write("later", to: folder.path + "/dangling.xml")
        #expect(folder.kind("dangling.xml") == S_IFLNK)
        #expect(folder.text("out/later.xml") == "later")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/out").sorted() == ["later.xml", "real.xml"])
        symlink("loop-b", folder.path + "/loop-a")
        symlink("loop-a", folder.path + "/loop-b")
        #expect(throws: Diagnostic.self) { try AtomicFile.write("x", to: folder.path + "/loop-a") }
    }

    @Test("A device is written directly and stays a device")
    func device() throws {
        let folder = try Folder()
        // As root, a null device of our own (never the system's /dev/null);
        // otherwise /dev/null, which a user cannot rename over anyway.
        var path = "/dev/null"
        if getuid() == 0, mknod(folder.path + "/null", S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 {
            let probe = open(folder.path + "/null", O_WRONLY)
            if probe >= 0 { close(probe); path = folder.path + "/null" }
        }
        try AtomicFile.write("<report/>", to: path)
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
        #expect(folder.names.allSatisfy { $0 == "null" })
        // /dev/full: a device that is always full; the error says so.
        if FileManager.default.fileExists(atPath: "/dev/full") {
            #expect { try AtomicFile.write("x", to: "/dev/full") } throws: { error in
                (error as? Diagnostic)?.problem.contains("No space left") == true
            }
        }
    }

    @Test("A FIFO is written directly when a program reads it, and refused at once when none does")
    func fifo() async throws {
        let folder = try Folder()
        let fifo = folder.path + "/f.xml"
        #expect(mkfifo(fifo, 0o644) == 0)
        let start = Date()
        #expect { try AtomicFile.write("x", to: fifo) } throws: { error in
            (error as? Diagnostic)?.help?.contains("reads") == true
        }
        #expect(Date().timeIntervalSince(start) < 5)
        let reader = Thread {
            let descriptor = open(fifo, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 64)
            var text = ""
            while true {
                let count = read(descriptor, &buffer, 64)
                if count <= 0 { break }
                text += String(decoding: buffer[..<count], as: UTF8.self)
            }
            close(descriptor)
            try? text.write(toFile: fifo + ".got", atomically: false, encoding: .utf8)
        }
        reader.start()
        var written = false
        for _ in 0..<200 where !written {
            written = (try? AtomicFile.write("through the fifo", to: fifo)) != nil
            if !written { usleep(10_000) }
        }
        #expect(written)
        for _ in 0..<200 where folder.text("f.xml.got") == nil { usleep(10_000) }
        #expect(folder.text("f.xml.got") == "through the fifo")
        #expect(folder.kind("f.xml") == S_IFIFO)
    }

    @Test("A missing folder or a folder path fails naming the path, the reason and what to do")
    func failures() throws {
        let folder = try Folder()
        #expect { try AtomicFile.write("x", to: folder.path + "/missing/r.txt") } throws: { error in
            let diagnostic = error as? Diagnostic
            return diagnostic?.problem.contains(folder.path + "/missing/r.txt") == true
                && diagnostic?.problem.contains("No such file") == true
                && diagnostic?.help?.contains("create the folder") == true
        }
        #expect { try AtomicFile.write("x", to: folder.path) } throws: { error in
            (error as? Diagnostic)?.problem.contains("Is a directory") == true
        }
        #expect(folder.names.isEmpty)
    }

    @Test("/dev/stdout and /dev/fd/N name this process's descriptors")
    func descriptors() {
        #expect(ReportDestination.descriptorNumber("/dev/stdout") == 1)
        #expect(ReportDestination.descriptorNumber("/dev/stderr") == 2)
        #expect(ReportDestination.descriptorNumber("/dev/fd/7") == 7)
        #expect(ReportDestination.descriptorNumber("/proc/self/fd/3") == 3)
        #expect(ReportDestination.descriptorNumber("/dev/fd/x") == nil)
        #expect(ReportDestination.descriptorNumber("out.xml") == nil)
    }
}

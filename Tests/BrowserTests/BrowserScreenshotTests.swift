import Foundation
import StoryKit
@testable import StoryKitBrowser
import Testing

extension BrowserTests {
    @Suite(.timeLimit(.minutes(10))) struct BrowserScreenshotTests {}
}

extension BrowserTests.BrowserScreenshotTests {
    /// A page of noise makes a PNG of megabytes: the DevTools message that
    /// carries it (base64 in one JSON string) is the largest the channel reads.
    @Test("A screenshot of a page of noise comes back whole: a PNG the size of the viewport, megabytes of base64 read in one message")
    func bigScreenshot() async throws {
        let page = try BrowserPage(connection: try Browser.connection())
        defer { page.close() }
        _ = try page.evaluate("""
            (() => { const c = document.createElement('canvas'); c.width = innerWidth; c.height = innerHeight;
              document.body.style.margin = '0'; document.body.appendChild(c);
              const g = c.getContext('2d'), d = g.createImageData(c.width, c.height);
              for (let i = 0; i < d.data.length; i++) d.data[i] = (i % 4 == 3) ? 255 : Math.random() * 256;
              g.putImageData(d, 0, 0); return c.width * c.height })()
            """)
        let width = try #require(try page.evaluate("innerWidth")?.intValue.map(Int.init))
        var times: [Double] = []
        var png = Data()
        for _ in 0..<5 {
            let start = Date()
            png = try page.screenshot()
            times.append(Date().timeIntervalSince(start))
        }
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "not a PNG")
        // IHDR: the width, big-endian, at bytes 16-19 (a device scale may double it).
        let pngWidth = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        #expect(pngWidth == width || pngWidth == 2 * width, "the PNG is \(pngWidth) wide, the page \(width)")
        #expect(png.count > 1_000_000, "a page of noise made a PNG of only \(png.count) bytes")
        print("screenshot round trip: \(png.count) bytes of PNG, best \(Int(times.min()! * 1000)) ms, median \(Int(times.sorted()[2] * 1000)) ms")
    }
}

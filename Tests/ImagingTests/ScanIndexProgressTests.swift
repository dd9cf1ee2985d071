import Foundation
import Synchronization
import XCTest
@testable import Imaging

/// A scan index handed out as its pass goes: rows the pass has recorded are cut while it reads on
/// below them (held here at a gate), to the same pixels as the whole decode; rows below wait for
/// it; a pass that fails or is stopped midway fails every asker it has not answered, and leaves no
/// half index behind; a warmed pass is the one a row asked right after waits for.
final class ScanIndexProgressTests: XCTestCase {
    private var fixtures: Fixtures!
    private var gates: [PassGate] = []

    override func setUpWithError() throws { fixtures = try Fixtures() }

    override func tearDown() {
        // A pass still held (a failed assertion) is let go, so its thread ends.
        for gate in gates { gate.open() }
        gates = []
        fixtures = nil
    }

    /// 4000×4000, noise over a gradient, quality 85 without restart markers: chroma halved both
    /// ways, so 250 MCU rows of 16 and 251 row starts.
    /// Made once a test run, each test's a copy of its own.
    private func photo() throws -> String {
        let path = try fixtures.jpeg("photo.jpg", from: fixtures.noisyGradient(width: 4000, height: 4000, sigma: 24), ["--Q", "85"])
        let file = try PhotoSource.file(path).open()
        defer { file.close() }
        XCTAssertTrue(JPEGScanIndex.indexes(descriptor: file.rawValue))
        XCTAssertFalse(JPEGRows.restartsAtRows(descriptor: file.rawValue), "no restarts: its rows are cut with its index")
        return path
    }

    private func gate(holdingAt recorded: Int) -> PassGate {
        let gate = PassGate(at: recorded)
        gates.append(gate)
        return gate
    }

    /// Asks `indexes` for the index of `path` holding `rows` on a thread of its own.
    private func ask(_ indexes: JPEGScanIndexes, _ path: String, holding rows: Range<Int>?, stop: RenderStop? = nil) -> Asker {
        let asker = Asker()
        DispatchQueue.global().async {
            guard let file = try? PhotoSource.file(path).open() else { return asker.answer(nil) }
            defer { file.close() }
            asker.answer(indexes.index(descriptor: file.rawValue, holding: rows, stop: stop))
        }
        return asker
    }

    /// Rows `wanted` of the file, from a band cut with `index`, or nil when it cuts none.
    private func bandRows(_ path: String, index: JPEGScanIndex, wanted: Range<Int>) throws -> [UInt8]? {
        let file = try PhotoSource.file(path).open()
        defer { file.close() }
        guard let band = JPEGRows.band(descriptor: file.rawValue, scale: 1, holding: wanted, index: index) else { return nil }
        let rowBytes = band.width * 3
        var pixels = [UInt8](repeating: 0, count: rowBytes * wanted.count)
        try band.skip(wanted.lowerBound - band.row)
        try pixels.withUnsafeMutableBufferPointer { try band.read(into: $0.baseAddress!, stride: rowBytes, rows: wanted.count) }
        return pixels
    }

    /// Rows `wanted` of the file, every row above them decoded.
    private func wholeDecodeRows(_ path: String, wanted: Range<Int>) throws -> [UInt8] {
        let file = try PhotoSource.file(path).open()
        defer { file.close() }
        let rows = try JPEGRows(descriptor: file.rawValue, scale: 1)
        let rowBytes = rows.width * 3
        var pixels = [UInt8](repeating: 0, count: rowBytes * wanted.count)
        try rows.skip(wanted.lowerBound)
        try pixels.withUnsafeMutableBufferPointer { try rows.read(into: $0.baseAddress!, stride: rowBytes, rows: wanted.count) }
        return pixels
    }

    func testRowsAboveAHeldPassAreCutBeforeItEndsAndRowsBelowWaitForIt() throws {
        let path = try photo()
        // Held at 120 of 251 row starts, about the middle.
        let gate = gate(holdingAt: 120)
        let indexes = JPEGScanIndexes(capacity: 2, afterRecording: gate.hook)
        // The fourth native row of tiles: MCU rows 47 to 64, one more on either side.
        let upper = 768..<1024
        let first = ask(indexes, path, holding: upper)
        XCTAssertEqual(gate.reached.wait(timeout: .now() + 60), .success, "the pass reaches its gate")
        XCTAssertEqual(first.done.wait(timeout: .now() + 60), .success, "answered while the pass is held")
        let index = try XCTUnwrap(first.index)
        XCTAssertEqual(index.recorded, 120, "the pass has not ended")
        XCTAssertFalse(index.isWhole)
        let file = try PhotoSource.file(path).open()
        defer { file.close() }
        let whole = try JPEGScanIndex(descriptor: file.rawValue)
        let decoded = try wholeDecodeRows(path, wanted: upper)
        XCTAssertTrue(try bandRows(path, index: index, wanted: upper) == decoded, "the whole decode's rows, byte for byte")
        XCTAssertTrue(try bandRows(path, index: whole, wanted: upper) == decoded, "as a whole index cuts them")

        // Below the gate: not cut from what is recorded, and waited for.
        let lower = 3072..<3328
        XCTAssertNil(try bandRows(path, index: index, wanted: lower), "rows the pass has not reached are not cut")
        let second = ask(indexes, path, holding: lower)
        XCTAssertEqual(second.done.wait(timeout: .now() + 0.5), .timedOut, "not answered while the pass is held above its rows")
        gate.open()
        XCTAssertEqual(second.done.wait(timeout: .now() + 60), .success, "answered once the pass reached its rows")
        XCTAssertTrue(try XCTUnwrap(second.index) === index, "from the same pass")
        XCTAssertTrue(try bandRows(path, index: index, wanted: lower) == wholeDecodeRows(path, wanted: lower))
        XCTAssertTrue(try XCTUnwrap(indexes.index(descriptor: file.rawValue)) === index, "kept whole")
        XCTAssertTrue(index.isWhole)
        XCTAssertEqual(gate.passes, 1, "one pass for every asker")
    }

    func testAPassThatFailsMidwayFailsEveryAskerItHasNotAnswered() throws {
        let good = try photo()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: good)))
        let path = fixtures.path("truncated.jpg")
        try Data(bytes[..<(bytes.count / 2)]).write(to: URL(fileURLWithPath: path))
        let gate = gate(holdingAt: 20)
        let indexes = JPEGScanIndexes(capacity: 2, afterRecording: gate.hook)
        // Above the gate, and so above where the file was cut: answered while the pass is held.
        let top = ask(indexes, path, holding: 0..<256)
        XCTAssertEqual(gate.reached.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(top.done.wait(timeout: .now() + 60), .success)
        let partial = try XCTUnwrap(top.index, "rows the pass read through before the damage")
        XCTAssertTrue(try bandRows(path, index: partial, wanted: 0..<256) == wholeDecodeRows(good, wanted: 0..<256))
        // Past where the file was cut (about MCU row 125 of 250), and the whole index.
        let askers = [ask(indexes, path, holding: 2560..<2816), ask(indexes, path, holding: 3072..<3328), ask(indexes, path, holding: nil)]
        gate.open()
        for asker in askers {
            XCTAssertEqual(asker.done.wait(timeout: .now() + 60), .success, "every asker hears of the failure")
            XCTAssertNil(asker.index, "and is handed no half index")
        }
        XCTAssertFalse(partial.isWhole)
        XCTAssertNil(try bandRows(path, index: partial, wanted: 3072..<3328), "nothing cut past what was read through")
        // The failure is kept: no new pass, and no row of it is cut any more.
        let file = try PhotoSource.file(path).open()
        defer { file.close() }
        XCTAssertNil(indexes.index(descriptor: file.rawValue, holding: 0..<256))
        XCTAssertEqual(indexes.count, 1)
        XCTAssertEqual(gate.passes, 1, "the damaged file is not read through again")
    }

    func testAPassStoppedMidwayFailsItsAskersAndIsNotKept() throws {
        let path = try photo()
        let gate = gate(holdingAt: 20)
        let indexes = JPEGScanIndexes(capacity: 2, afterRecording: gate.hook)
        let stop = RenderStop()
        let asker = ask(indexes, path, holding: 3072..<3328, stop: stop)
        XCTAssertEqual(gate.reached.wait(timeout: .now() + 60), .success)
        stop.cancel()
        gate.open()
        XCTAssertEqual(asker.done.wait(timeout: .now() + 60), .success)
        XCTAssertNil(asker.index, "stopped before its rows")
        XCTAssertEqual(indexes.count, 0, "not kept")
        let file = try PhotoSource.file(path).open()
        defer { file.close() }
        let index = try XCTUnwrap(indexes.index(descriptor: file.rawValue, holding: 3072..<3328), "the next asker makes it")
        XCTAssertEqual(gate.passes, 2)
        XCTAssertTrue(try bandRows(path, index: index, wanted: 3072..<3328) == wholeDecodeRows(path, wanted: 3072..<3328))
    }

    func testAPassWhoseFileIsLetGoOfEndsAndFailsItsAskers() throws {
        let path = try photo()
        let other = fixtures.path("other.jpg")
        try FileManager.default.copyItem(atPath: path, toPath: other)
        let gate = gate(holdingAt: 20)
        // Room for one file: the second one asked lets go of the first.
        let indexes = JPEGScanIndexes(capacity: 1, afterRecording: gate.hook)
        let lower = ask(indexes, path, holding: 3072..<3328)
        XCTAssertEqual(gate.reached.wait(timeout: .now() + 60), .success, "the first file's pass is held")
        let second = ask(indexes, other, holding: 0..<256)
        XCTAssertEqual(second.done.wait(timeout: .now() + 60), .success)
        XCTAssertNotNil(second.index, "the other file's pass serves its asker")
        XCTAssertEqual(indexes.count, 1)
        gate.open()
        XCTAssertEqual(lower.done.wait(timeout: .now() + 60), .success)
        XCTAssertNil(lower.index, "the pass let go of ended before its rows, instead of reading the file for nobody")
        XCTAssertEqual(gate.passes, 2)
    }

    func testAWarmedPassIsTheOneARowAskedRightAfterWaitsFor() throws {
        let path = try photo()
        let gate = gate(holdingAt: 120)
        let indexes = JPEGScanIndexes(capacity: 2, afterRecording: gate.hook)
        indexes.warm(.file(path), stop: RenderStop())
        XCTAssertEqual(indexes.count, 1, "the pass is known as soon as it is started")
        // Asked right after: answered from the warmed pass as soon as it holds the rows, while
        // it is held further down.
        let upper = 768..<1024
        let asker = ask(indexes, path, holding: upper)
        XCTAssertEqual(gate.reached.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(asker.done.wait(timeout: .now() + 60), .success, "answered while the warmed pass is held")
        let index = try XCTUnwrap(asker.index)
        XCTAssertFalse(index.isWhole)
        XCTAssertTrue(try bandRows(path, index: index, wanted: upper) == wholeDecodeRows(path, wanted: upper))
        XCTAssertEqual(gate.passes, 1, "no pass of its own")
        XCTAssertGreaterThanOrEqual(gate.nice, 10, "the warmed pass runs at a lowered priority")
        gate.open()
    }

    func testABuildWarmsTheIndexThatARowAskedDuringItIsCutWith() throws {
        let path = try photo()
        let shared = JPEGScanIndexes.shared
        let before = shared.passesStarted
        // At the build's first tile, a native row asked of the file, as a viewer's deep tile is.
        let upper = 768..<1024
        let asked = Mutex<(asked: Bool, index: JPEGScanIndex?, passes: [Int])>((false, nil, []))
        let watcher = BuildWatcher(started: { _, _ in }, wrote: { _ in
            guard !asked.withLock({ state in defer { state.asked = true }; return state.asked }),
                  let file = try? PhotoSource.file(path).open() else { return }
            defer { file.close() }
            let warmed = shared.passesStarted
            let index = shared.index(descriptor: file.rawValue, holding: upper)
            asked.withLock { $0.index = index; $0.passes = [warmed, shared.passesStarted] }
        })
        // 16 megapixels: warmed as a photo of 100 and more is.
        _ = try PhotoRenderer.buildPyramid(source: .file(path), into: fixtures.path("pyramid"), settings: RenderSettings(),
                                           reusing: nil, helpers: 0, watcher: watcher, warmingIndexFrom: 4000 * 4000)
        let (_, index, passes) = asked.withLock { $0 }
        XCTAssertEqual(passes, [before + 1, before + 1], "the build's pass, started as it began, and none of the row's own")
        XCTAssertTrue(try bandRows(path, index: XCTUnwrap(index), wanted: upper) == wholeDecodeRows(path, wanted: upper))
    }
}

/// Holds the first pass that records `at` row starts until `open`; counts the passes started.
private final class PassGate: Sendable {
    let at: Int
    let reached = DispatchSemaphore(value: 0)
    private let go = DispatchSemaphore(value: 0)
    private let state = Mutex((held: false, opened: false, passes: 0, nice: Int32(0)))

    init(at: Int) { self.at = at }

    var passes: Int { state.withLock { $0.passes } }
    /// The nice value of the thread of the first pass.
    var nice: Int32 { state.withLock { $0.nice } }

    var hook: @Sendable (Int) -> Void { { [self] recorded in record(recorded) } }

    private func record(_ recorded: Int) {
        let hold = state.withLock { state -> Bool in
            if recorded == 1 {
                state.passes += 1
                if state.passes == 1 { state.nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
            }
            guard recorded == at, !state.held, !state.opened else { return false }
            state.held = true
            return true
        }
        guard hold else { return }
        reached.signal()
        go.wait()
    }

    func open() {
        let wasHeld = state.withLock { state -> Bool in
            defer { state.opened = true }
            return state.held && !state.opened
        }
        if wasHeld { go.signal() }
    }
}

/// One asker's answer, once it came.
private final class Asker: Sendable {
    let done = DispatchSemaphore(value: 0)
    private let answered = Mutex<JPEGScanIndex?>(nil)

    var index: JPEGScanIndex? { answered.withLock { $0 } }

    func answer(_ index: JPEGScanIndex?) {
        answered.withLock { $0 = index }
        done.signal()
    }
}

import Foundation

/// `[#####     ] 3/5 photo3.jpg`, redrawn in place on a terminal; plain lines otherwise.
struct IngestProgress {
    let total: Int
    let terminal: Bool
    private var width = 0

    init(total: Int, terminal: Bool) {
        self.total = total
        self.terminal = terminal
    }

    mutating func show(done: Int, name: String) {
        guard terminal else { return }
        draw(done: done, name: name)
    }

    mutating func finished(done: Int, name: String, failed: Bool) {
        if terminal {
            draw(done: done, name: name)
        } else {
            print("\(done)/\(total) \(name) \(failed ? "failed" : "ready")")
        }
    }

    mutating func end() {
        if terminal && width > 0 { print("") }
    }

    private mutating func draw(done: Int, name: String) {
        let cells = 20
        let filled = total == 0 ? cells : done * cells / total
        var line = "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: cells - filled) + "] \(done)/\(total) \(name)"
        let visible = line.count
        if visible < width { line += String(repeating: " ", count: width - visible) }
        width = visible
        FileHandle.standardOutput.write(Data(line.utf8))
    }
}

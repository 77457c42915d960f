/// Deterministic mutations of the kinds that break parsers: bit flips, truncation, huge
/// lengths, indefinite nesting, duplicated chunks. Used by the fuzz test and
/// `iapdesk-bench fuzz`.
package struct InputMutator {
    var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(max(bound, 1)))
    }

    package mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        guard !bytes.isEmpty else { return bytes }
        for _ in 0...next(3) {
            let at = next(bytes.count)
            switch next(7) {
            case 0: bytes[at] ^= UInt8(1 << next(8))  // bit flip
            case 1: bytes[at] = UInt8(truncatingIfNeeded: next(256))  // random byte
            case 2: bytes.removeLast(min(bytes.count - 1, next(bytes.count)))  // truncation
            case 3: bytes.replaceSubrange(at..<min(bytes.count, at + 5), with: [0x84, 0xFF, 0xFF, 0xFF, 0xF0])  // huge length
            case 4: bytes.insert(contentsOf: [0x30, 0x80], at: at)  // indefinite nesting
            case 5: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + next(64))], at: at)  // duplicated chunk
            default: bytes[at] = [0x00, 0x80, 0xFF, 0x30, 0x24, 0x2E, 0x7B, 0x22][next(8)]  // structural bytes
            }
            if bytes.isEmpty { bytes = [0] }
        }
        return bytes
    }
}

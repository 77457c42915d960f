import OrderDomain
import OrderStore
import Testing

/// Calls to Apple start a gap apart that follows how long they take: fast answers are not
/// held back, slow ones are spread over the calls in flight, never more than 10 ms apart.
@Suite("Call pacing")
struct CallPacerTests {
    @Test("Before any call finished the calls start at once; then a call's typical duration ÷ the slots apart, at most 10 ms")
    func gapFollowsCalls() {
        var pacer = CallPacer(slots: 8)
        #expect(pacer.spacing == .zero)
        _ = pacer.nextStart()
        #expect(pacer.nextStart() <= ContinuousClock.now, "nothing known yet: the next call starts now, not later")

        pacer.observe(.milliseconds(2))
        #expect(pacer.spacing == .microseconds(250), "answers in 2 ms over 8 slots")

        var slow = CallPacer(slots: 32)
        slow.observe(.milliseconds(500))
        #expect(slow.spacing == CallPacer.maxSpacing, "500 ms over 32 slots is 15.6 ms: capped at 10")
        let start = slow.nextStart()
        let next = slow.nextStart()
        #expect(next - start >= .milliseconds(10) && slow.nextStart() - next >= .milliseconds(10))
    }

    @Test("One slow answer among fast ones moves the gap by an eighth of the difference")
    func movingAverage() {
        var pacer = CallPacer(slots: 1)
        pacer.observe(.milliseconds(1))
        pacer.observe(.milliseconds(9))
        #expect(pacer.spacing == .milliseconds(2))
    }
}

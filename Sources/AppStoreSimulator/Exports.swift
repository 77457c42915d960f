// The faults a simulator plays (latency, 5xx, 429, time-outs, malformed answers) are shared
// with the Google Play simulator; users of this module keep naming them through it.
@_exported import SimulatorFaults

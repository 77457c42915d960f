// The store answers in the domain's values (orders, records, reports, rules): whoever opens a
// store uses them, so importing OrderStore brings OrderDomain along.
@_exported import OrderDomain

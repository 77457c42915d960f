// The store answers in the domain's values (orders, records, reports, rules). Whoever uses
// them imports OrderDomain too: what a file depends on is said where it is used.
import OrderDomain

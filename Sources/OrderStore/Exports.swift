@_exported import OrderDomain

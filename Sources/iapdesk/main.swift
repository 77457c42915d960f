import IAPDeskApp

await IAPDesk.runFromCommandLine()

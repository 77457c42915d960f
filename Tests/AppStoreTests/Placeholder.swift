import AppStore

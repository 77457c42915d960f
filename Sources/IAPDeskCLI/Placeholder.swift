import ArgumentParser; import TOMLKit; import OrderStore

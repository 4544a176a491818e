detc.func @__main__ kind module {
  detc.build "b0" defs ["m"] {
  }
  detc.forward "m" builds ["b0", "b9"] defs ["out"]
}

// Every verifier of the dialect rejects what it must, with its message.
// RUN: detc-opt %s -split-input-file -verify-diagnostics

detc.func @__main__ kind module {
  // expected-error @+1 {{'defs' entry "1x" is not a variable name}}
  detc.stmt "assign" defs ["1x"]
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{'uses' entry "<jax>" is not a variable name}}
  detc.stmt "expr" uses ["<jax>"]
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{'updates' entry "a..b" is not a variable name}}
  detc.stmt "expr" updates ["a..b"]
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{needs a statement kind}}
  detc.stmt ""
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{'copy' needs exactly one def and one use}}
  detc.stmt "assign" copy defs ["a"] uses ["b", "c"]
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{'restores' needs a variable it defines or updates}}
  detc.stmt "expr" restores ["model"] uses ["model"]
}

// -----

// expected-error @+1 {{of kind 'module' cannot have parameters}}
detc.func @__main__ kind module params ["x"] {
}

// -----

// expected-error @+1 {{duplicate parameter 'x'}}
detc.func @f kind function params ["x", "x"] {
}

// -----

// expected-error @+1 {{parameter 'self.x' is not an identifier}}
detc.func @f kind function params ["self.x"] {
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{unknown generator library 'jax'}}
  detc.global_generator "jax" defs ["<torch>"]
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{must define exactly '<numpy>'}}
  detc.global_generator "numpy" defs ["<torch>"]
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{must define exactly one generator}}
  detc.create_generator "random" seeded defs ["a", "b"]
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{generator 'not a var' is not a variable name}}
  detc.draw "not a var" dist "uniform"
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{needs a distribution name}}
  detc.draw "g" dist ""
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{workers must be a number or 'unknown', got 'many'}}
  detc.parallel per_example workers "many" {
  }
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{workers must be a number or 'unknown', got '-1'}}
  detc.batches "ds" workers "-1" defs ["loader"]
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{shuffle generator '' is not a variable name}}
  detc.batches "ds" shuffle "" workers "0" defs ["loader"]
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{needs a non-empty id}}
  detc.build "" defs ["m"] {
  }
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{wraps 'net', which it does not read}}
  detc.build "b1" defs ["m"] uses ["other"] attributes {wraps = "net"} {
  }
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{a wrapper with new parameters does not share its module's state}}
  detc.build "b1" defs ["m"] uses ["net"] attributes {new_parameters, wraps = "net"} {
  }
}


// -----

// expected-error @+1 {{must be inside a function body}}
detc.hint

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{iteration bound must be positive, got 0}}
  detc.for iterations 0 defs ["i"] {
  }
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{iteration bound must be positive, got -3}}
  detc.while iterations -3 {
  }
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{'detc.return' op outside a function}}
  detc.return
}

// -----

detc.func @__main__ kind module {
  detc.if uses ["c"] {
    // expected-error @+1 {{'detc.break' op outside a loop}}
    detc.break
  }
}

// -----

detc.func @__main__ kind module {
  detc.for defs ["i"] {
    detc.build "b0" defs ["m"] {
      // A loop around a build does not make its forward a loop body.
      // expected-error @+1 {{'detc.continue' op outside a loop}}
      detc.continue
    }
  }
}

// -----

detc.func @__main__ kind module {
  // expected-error @+1 {{refers to unknown function @nowhere}}
  detc.call @nowhere
}

// -----

detc.class @C role plain {
}
detc.func @__main__ kind module {
  // expected-error @+1 {{callee @C is not a 'detc.func'}}
  detc.call @C
}

// -----

detc.func @f kind function params ["a"] {
}
detc.func @__main__ kind module {
  // expected-error @+1 {{binds 'b', which is not a parameter of @f}}
  detc.call @f bind {b = "x"}
}

// -----

detc.func @f kind function params ["a"] {
}
detc.func @__main__ kind module {
  // expected-error @+1 {{binds 'a' to "x y", which is not a variable name}}
  detc.call @f bind {a = "x y"}
}

// -----

detc.func @__main__ kind module {
// expected-error @+1 {{expression range [3:30] is not inside its statement [1:20]}}
} loc(fused<#detc.src<"t.py":1:1, stmt 1 to 20, expr 3 to 30>>[unknown])

// -----

detc.func @__main__ kind module {
// expected-error @+1 {{a source position needs a file and a line}}
} loc(fused<#detc.src<"t.py":0:1, stmt 1 to 20, expr 3 to 10>>[unknown])

// -----

detc.func @__main__ kind module {
// expected-error @+1 {{a source position needs a file and a line}}
} loc(fused<#detc.src<"":3:1, stmt 1 to 20, expr 3 to 10>>[unknown])

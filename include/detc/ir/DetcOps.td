//===- DetcOps.td - Operations of the detc dialect --------------*- tablegen -*-===//
//
// One op per construct of SPEC.md §1. Statement ops list the variables they
// define, update and use (VarAccessOpInterface); region ops implement
// RegionBranchOpInterface so MLIR's dataflow framework can walk into them.
//
//===----------------------------------------------------------------------===//

#ifndef DETC_IR_DETCOPS_TD
#define DETC_IR_DETCOPS_TD

include "detc/ir/DetcDialect.td"
include "detc/ir/DetcAttrs.td"
include "detc/ir/DetcInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// The three variable lists every statement carries. (TableGen does not
// resolve top-level `defvar`s inside `let`, so they are fields.)
def Detc_VarList : DefaultValuedAttr<StrArrayAttr, "{}">;

class Detc_Op<string mnemonic, list<Trait> traits = []>
    : Op<Detc_Dialect, mnemonic, traits> {
  dag varArgs = (ins Detc_VarList:$defs, Detc_VarList:$updates,
                     Detc_VarList:$uses);
  string varFormat =
      "(`defs` $defs^)? (`updates` $updates^)? (`uses` $uses^)?";
}

class Detc_StmtOp<string mnemonic, list<Trait> traits = []>
    : Detc_Op<mnemonic, !listconcat(traits, [Detc_VarAccessOpInterface])>;

// Region ops: one block per region, implicit `detc.yield` terminator.
defvar RegionTraits = [SingleBlockImplicitTerminator<"YieldOp">,
                       NoRegionArguments, RecursiveMemoryEffects,
                       DeclareOpInterfaceMethods<RegionBranchOpInterface>];

//===----------------------------------------------------------------------===//
// Structure: functions, classes, terminator
//===----------------------------------------------------------------------===//

def Detc_FuncOp : Detc_Op<"func", [Symbol, SingleBlockImplicitTerminator<"YieldOp">,
                                   NoRegionArguments, RecursiveMemoryEffects]> {
  let summary = "A Python function, method, lambda or module body";
  let description = [{
    The statements of one Python function. Functions defined inside classes
    live in the `detc.class` op of their class; nested functions and lambdas
    are hoisted to the module under their qualified name. The top-level
    statements of the script are the function `@__main__` of kind `module`;
    a local module `m` imported by the script contributes `@"m.<module>"`.

    `params` lists the parameter names in declaration order (positional-only,
    positional, `*args`, keyword-only, `**kwargs`).

    Example:

    ```mlir
    detc.func @train kind function params ["model", "loader"] {
      detc.stmt "assign" defs ["n"] uses ["loader"]
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, Detc_FuncKindAttr:$kind,
                       Detc_VarList:$params);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `kind` `` $kind (`params` $params^)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
}

def Detc_ClassOp : Detc_Op<"class", [Symbol, SymbolTable, NoTerminator,
                                     SingleBlock, NoRegionArguments]> {
  let summary = "A Python class with its methods";
  let description = [{
    A class statement. `bases` are the resolved qualified names of the base
    classes (`torch.nn.Module`, `torch.utils.data.Dataset`, or the symbol
    name of a class defined in the analysed files). `role` says what the
    class is to training: a `model` (its `forward`/`call` is what calling an
    instance runs), a `dataset` (its `__getitem__` runs per example), a
    `transform` (its `__call__` runs per example) or `plain`.

    The region holds the methods (`detc.func` of kind `method`) and the
    statements of the class body.

    Example:

    ```mlir
    detc.class @Net role model bases ["torch.nn.Module"] {
      detc.func @forward kind method params ["self", "x"] {
        detc.return uses ["x"]
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, Detc_ClassRoleAttr:$role,
                       Detc_VarList:$bases);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `role` `` $role (`bases` $bases^)? attr-dict-with-keyword $body
  }];
}

def Detc_YieldOp : Detc_Op<"yield", [Pure, Terminator, ReturnLike,
    DeclareOpInterfaceMethods<RegionBranchTerminatorOpInterface>]> {
  let summary = "End of a region";
  let description = [{
    Terminates every region of the dialect. It is implicit in the custom
    syntax and carries no values: control returns to the parent op, which
    says where it continues (RegionBranchOpInterface).

    Example: `detc.yield`
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Random generators
//===----------------------------------------------------------------------===//

def Detc_GlobalGeneratorOp : Detc_StmtOp<"global_generator"> {
  let summary = "The implicit global generator of a library";
  let description = [{
    `create_generator` with an unknown seed at program start, for a library
    whose global generator the program can reach (`<torch>`, `<numpy>`,
    `<random>`, `<tensorflow>`). Emitted once at the top of `@__main__` for
    each such library the script imports. `defs` holds the generator.

    Example: `detc.global_generator "torch" defs ["<torch>"]`
  }];
  let arguments = !con((ins StrAttr:$library), varArgs);
  let assemblyFormat = "$library " # varFormat # " attr-dict";
  let hasVerifier = 1;
}

def Detc_CreateGeneratorOp : Detc_StmtOp<"create_generator"> {
  let summary = "Create or reseed a random generator (create_generator)";
  let description = [{
    `G = create_generator(V)`: `torch.Generator().manual_seed(s)`,
    `np.random.default_rng(s)`, `np.random.RandomState(s)`,
    `random.Random(s)`, and the global reseeding calls `torch.manual_seed(s)`,
    `np.random.seed(s)`, `random.seed(s)`, `tf.random.set_seed(s)` (which
    define the library's global generator `<torch>`, ...). `defs` holds the
    generator; `uses` the seed's variables. `api` is the resolved callee.
    A `seeded` generator has a seed given by the program (possibly computed);
    an unseeded one draws its seed from the OS. `reseed` marks a seeding
    method called on an existing generator (`g.manual_seed(s)`,
    `rs.seed(s)`): the generator object is the one the receiver holds, not a
    new one.

    Example:

    ```mlir
    detc.create_generator "torch" seeded defs ["g"] uses ["seed"] {api = "torch.Generator.manual_seed"}
    ```
  }];
  let arguments = !con((ins StrAttr:$library, UnitAttr:$seeded,
                            UnitAttr:$reseed, OptionalAttr<StrAttr>:$api),
                       varArgs);
  let assemblyFormat = "$library (`seeded` $seeded^)? (`reseed` $reseed^)? " #
                       varFormat #
                       " attr-dict";
  let hasVerifier = 1;
}

def Detc_DrawOp : Detc_StmtOp<"draw"> {
  let summary = "Draw random numbers from a generator (random_gen)";
  let description = [{
    `V = random_gen(G, E)`: one call that advances generator `gen` — the
    variable holding the generator (`g`, `self.rng`, `<torch>`, ...).
    `dist` names what is drawn (`uniform`, `normal`, `bernoulli`, `dropout`,
    `integers`, `permutation`, `shuffle`, `choice`, `gamma`, `beta`,
    `transform` for random data augmentation, ...). `api` is the resolved
    callee, e.g. `torch.rand` or `torch.nn.Dropout` for a dropout layer's
    draw inside the layer's forward. The draw's value is in `defs`; in-place
    draws (`x.uniform_()`, `np.random.shuffle(x)`) list `x` in `updates`.

    Example:

    ```mlir
    detc.draw "<torch>" dist "uniform" defs ["$0"] uses ["x"] {api = "torch.rand_like"}
    ```
  }];
  let arguments = !con((ins StrAttr:$gen, StrAttr:$dist,
                            OptionalAttr<StrAttr>:$api), varArgs);
  let assemblyFormat = "$gen `dist` $dist " # varFormat # " attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data parallelism and data loading
//===----------------------------------------------------------------------===//

def Detc_ParallelOp : Detc_StmtOp<"parallel", RegionTraits> {
  let summary = "A data-parallel region (data_parallel_begin ... end)";
  let description = [{
    The body may run concurrently for different examples (`per_example`:
    a Dataset's `__getitem__` and its transforms under a DataLoader with
    worker processes, `tf.data.Dataset.map(num_parallel_calls=...)`) or for
    the examples of one batch (`per_batch`: the body of `for x, y in loader`,
    `DataParallel`/`DistributedDataParallel` forward, a `tf.distribute`
    step). Entering the region is `data_parallel_begin(uses)`, leaving it is
    `data_parallel_end`. `workers` is the number of workers when known, or
    `unknown` when the program computes it (e.g. from a command-line flag).
    `counted` marks a per-batch region that is the body of a loop over a
    count (`for i in range(n)`, `trange(n)`) or a `while`, taking a
    training step itself, whose batches come from no loader and no slice
    by the loop variable (NeRF's rays picked at random from arrays in
    memory, full-batch epochs), outside any other per-batch region: its
    draws are reported as the step's but left on their generators by the
    transform, and the loop takes no batches for the planners that look
    for one (`takesBatches`).

    Example:

    ```mlir
    detc.parallel per_batch uses ["x", "y"] {
      detc.forward "model" defs ["$1"] uses ["x"]
    }
    ```
  }];
  let arguments = !con((ins Detc_ParallelKindAttr:$kind,
                            OptionalAttr<StrAttr>:$workers,
                            UnitAttr:$counted), varArgs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "`` $kind (`workers` $workers^)? " # varFormat #
                       " attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

def Detc_LoadDataOp : Detc_StmtOp<"load_data"> {
  let summary = "Create a dataset (load_data)";
  let description = [{
    `D = load_data()`: constructing a dataset — an instance of a user
    `Dataset` class (`cls`), `torchvision.datasets.*`, `TensorDataset`,
    `tf.data.Dataset.from_tensor_slices`, ...

    Example:

    ```mlir
    detc.load_data cls @Aug defs ["ds"] uses ["n"] {api = "Aug"}
    ```
  }];
  let arguments = !con((ins OptionalAttr<FlatSymbolRefAttr>:$cls,
                            OptionalAttr<StrAttr>:$api), varArgs);
  let assemblyFormat = "(`cls` $cls^)? " # varFormat # " attr-dict";
}

def Detc_BatchesOp : Detc_StmtOp<"batches"> {
  let summary = "Create a batched view of a dataset (generate_batches)";
  let description = [{
    `V1 = generate_batches(V2)`: `torch.utils.data.DataLoader(ds, ...)`,
    `tf.data.Dataset.batch`. `dataset` is the variable holding the dataset,
    `shuffle` is set when each iteration draws a new permutation (from
    `gen`, the loader's generator, default the library's global one), and
    `workers` is the number of loader workers: a number, or `unknown`.

    Example:

    ```mlir
    detc.batches "ds" shuffle "<torch>" workers "unknown" defs ["loader"] uses ["ds", "kw"]
    ```
  }];
  let arguments = !con((ins StrAttr:$dataset, OptionalAttr<StrAttr>:$shuffle,
                            StrAttr:$workers, OptionalAttr<StrAttr>:$api),
                       varArgs);
  let assemblyFormat = "$dataset (`shuffle` $shuffle^)? `workers` $workers " # varFormat # " attr-dict";
  let hasVerifier = 1;
}

def Detc_FetchOp : Detc_StmtOp<"fetch", RegionTraits> {
  let summary = "Produce the next batch of a loader";
  let description = [{
    The head of `for x, y in loader:`: gets the next batch into `defs`. The
    region holds what producing one batch runs per example — the dataset's
    `__getitem__` and its transforms — inside a `per_example`
    `detc.parallel` when the loader may use worker processes. The head of
    a loop carries `arity`: how many parts its batch target unpacks into
    (-1: the batch is bound whole). Behind `pbar = enumerate(loader)` the
    loop's text does not show which part is the batch, and fast-forward's
    placeholder batches must unpack as real ones.

    Example:

    ```mlir
    detc.fetch "loader" defs ["x", "y"] uses ["loader"] {
      detc.parallel per_example workers "2" uses ["loader"] {
        detc.call @Aug::@__getitem__ uses ["ds"]
      }
    }
    ```
  }];
  let arguments = !con((ins StrAttr:$loader), varArgs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$loader " # varFormat # " attr-dict-with-keyword $body";
}

//===----------------------------------------------------------------------===//
// Models and training
//===----------------------------------------------------------------------===//

def Detc_BuildOp : Detc_StmtOp<"build", RegionTraits> {
  let summary = "Build a model (M = build(S))";
  let description = [{
    Constructs a model or layer: an instance of a user `nn.Module` /
    `keras.Model` class (`cls`, whose constructor runs), a library layer
    (`api`, e.g. `torch.nn.Dropout`), a container (`nn.Sequential`,
    `keras.Sequential`) or a parallel wrapper (`DistributedDataParallel`).
    The region is the model's forward: the statements that calling the model
    runs (for a user class, a call of its `forward`; for a dropout layer, its
    draw; for a container, the forwards of its parts). The region does not
    run at construction. `id` names the build so that `detc.forward` ops can
    say which builds they may run. `new_parameters`: a wrapper whose
    parameters are new tensors, not its module's (FullyShardedDataParallel
    flattens them): an optimizer built over the module before it updates
    tensors the wrapper no longer uses (`detc-optimizer-before-move`).
    `wraps`: the variable holding the module a parallel wrapper (or
    `torch.compile`) wraps, whose state is the wrapper's (its state_dict is
    the module's, under `module.` or `_orig_mod.`): a checkpoint of either
    restores both.

    Example:

    ```mlir
    detc.build "b0" cls @Net defs ["model"] {
      detc.call @Net::@forward
    }
    ```
  }];
  let arguments = !con((ins StrAttr:$id, OptionalAttr<FlatSymbolRefAttr>:$cls,
                            OptionalAttr<StrAttr>:$api,
                            UnitAttr:$new_parameters,
                            OptionalAttr<StrAttr>:$wraps), varArgs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$id (`cls` $cls^)? " # varFormat #
                       " attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

def Detc_ForwardOp : Detc_StmtOp<"forward"> {
  let summary = "Run a model's forward (V1 = M(V2, V3))";
  let description = [{
    Calls the model held by `model` (`model(x)`, `self.fc(h)`,
    `criterion(out, y)`), running the forward region of one of the builds in
    `builds` (several when the variable may hold different models; none when
    the model is not known statically, then the call is opaque).

    Example:

    ```mlir
    detc.forward "model" builds ["b0"] defs ["$2"] uses ["model", "x"]
    ```
  }];
  let arguments = !con((ins StrAttr:$model, Detc_VarList:$builds), varArgs);
  let assemblyFormat = "$model (`builds` $builds^)? " # varFormat #
                       " attr-dict";
  let hasVerifier = 1;
}

def Detc_GradOp : Detc_StmtOp<"grad"> {
  let summary = "Compute gradients (∇)";
  let description = [{
    `loss.backward()`, `torch.autograd.grad`, `tape.gradient`: computes the
    gradient of the loss in `uses` with respect to the parameters of the
    models in `updates` (their `.grad` fields) or into `defs`.

    Example: `detc.grad updates ["model"] uses ["loss"]`
  }];
  let arguments = !con((ins OptionalAttr<StrAttr>:$api), varArgs);
  let assemblyFormat = varFormat # " attr-dict";
}

def Detc_UpdateOp : Detc_StmtOp<"update"> {
  let summary = "Apply gradients to a model (B(M, V))";
  let description = [{
    `optimizer.step()`, `apply_gradients`: updates the models in `updates`
    with their gradients using the optimizer in `optimizer`.

    Example: `detc.update "opt" updates ["model", "opt"] uses ["opt", "model"]`
  }];
  let arguments = !con((ins StrAttr:$optimizer, OptionalAttr<StrAttr>:$api),
                       varArgs);
  let assemblyFormat = "$optimizer " # varFormat # " attr-dict";
}

def Detc_LibCallOp : Detc_StmtOp<"lib_call"> {
  let summary = "A known library call without randomness";
  let description = [{
    A call the API model knows by name (`api`) and classifies with a `role`
    (`optimizer`, `zero_grad`, `to_device`, `train_mode`, `eval_mode`,
    `no_grad`, `lr_schedule`, `deterministic`, `state_dict`, ...) but that has
    no dedicated op. Lint checks (missing `zero_grad`, optimizer created
    before the model is moved) read these. `new_parameters` (a `to_device`
    move): the move may make new parameter tensors instead of converting
    them in place — to an XLA device, whose tensors cannot share a CPU
    tensor's storage. `returns_receiver`: the call returns the object it is
    called on (the table's `self`: `model = Net().to(device)` binds `model`
    to the module built, as `.cuda()`, `.eval()` and `.train()` do).

    Example:

    ```mlir
    detc.lib_call "zero_grad" updates ["opt"] uses ["opt"] {api = "torch.optim.Optimizer.zero_grad"}
    ```
  }];
  let arguments = !con((ins StrAttr:$role, StrAttr:$api,
                            UnitAttr:$new_parameters,
                            UnitAttr:$returns_receiver), varArgs);
  let assemblyFormat = "$role " # varFormat # " attr-dict";
}

//===----------------------------------------------------------------------===//
// Checkpoints and hints
//===----------------------------------------------------------------------===//

def Detc_CheckpointOp : Detc_StmtOp<"checkpoint"> {
  let summary = "The user's own checkpoint save (checkpoint(V1, V2, ...))";
  let description = [{
    `torch.save(obj, path)`, `model.save_weights`, `tf.train.Checkpoint.save`,
    `accelerator.save_state`. `saved` lists the variables whose state the
    saved object reaches (`model.state_dict()` saves `model`; a dict literal
    saves each of its values); `uses` also includes the path.

    Example:

    ```mlir
    detc.checkpoint saved ["model", "opt", "epoch"] uses ["model", "opt", "epoch", "path"] {api = "torch.save"}
    ```
  }];
  let arguments = !con((ins Detc_VarList:$saved, OptionalAttr<StrAttr>:$api),
                       varArgs);
  let assemblyFormat = "(`saved` $saved^)? " # varFormat # " attr-dict";
}

def Detc_RestoreOp : Detc_StmtOp<"restore"> {
  let summary = "Restore state from a checkpoint";
  let description = [{
    `torch.load(path)` (defines the loaded object), `model.load_state_dict`,
    `load_weights`, `restore` (update the model or optimizer in `updates`).

    Example: `detc.restore updates ["model"] uses ["model", "ckpt"] {api = "torch.nn.Module.load_state_dict"}`
  }];
  let arguments = !con((ins OptionalAttr<StrAttr>:$api), varArgs);
  let assemblyFormat = varFormat # " attr-dict";
}

def Detc_HintOp : Detc_Op<"hint"> {
  let summary = "A checkpoint hint (`_checkpoint()`)";
  let description = [{
    CheckHint's marker: a checkpoint may be taken here. It is a no-op when
    the script runs without detc. `label` is the optional name passed as
    `_checkpoint("name")`. Hints are only meaningful inside a function body.

    Example: `detc.hint`
  }];
  let arguments = (ins OptionalAttr<StrAttr>:$label);
  let assemblyFormat = "($label^)? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

def Detc_ForOp : Detc_StmtOp<"for", RegionTraits> {
  let summary = "A for loop";
  let description = [{
    `for targets in iterable:` — `defs` are the loop targets, `uses` the
    iterable's variables. `iterations` is the bound from a CheckHint
    annotation (`_iterations: N` in the body). `orelse` is Python's `else:`
    clause (runs when the loop ends without `break`).

    Example:

    ```mlir
    detc.for iterations 5 defs ["epoch"] uses ["n"] {
      detc.hint
    }
    ```
  }];
  let arguments = !con((ins OptionalAttr<I64Attr>:$iterations), varArgs);
  let regions = (region SizedRegion<1>:$body, AnyRegion:$orelse);
  let assemblyFormat = "(`iterations` $iterations^)? " # varFormat #
                       " attr-dict-with-keyword $body (`else` $orelse^)?";
  let hasVerifier = 1;
}

def Detc_WhileOp : Detc_StmtOp<"while", RegionTraits> {
  let summary = "A while loop";
  let description = [{
    `while test:` — `uses` are the variables of the test (evaluated before
    each iteration). `iterations` and `orelse` as for `detc.for`.

    Example:

    ```mlir
    detc.while uses ["step", "n"] {
      detc.stmt "augassign" updates ["step"] uses ["step"]
    }
    ```
  }];
  let arguments = !con((ins OptionalAttr<I64Attr>:$iterations), varArgs);
  let regions = (region SizedRegion<1>:$body, AnyRegion:$orelse);
  let assemblyFormat = "(`iterations` $iterations^)? " # varFormat #
                       " attr-dict-with-keyword $body (`else` $orelse^)?";
  let hasVerifier = 1;
}

def Detc_IfOp : Detc_StmtOp<"if", RegionTraits> {
  let summary = "A conditional";
  let description = [{
    `if test: ... else: ...` (and `elif`, nested in the else region; and
    `match`, lowered to a chain of conditionals). `uses` are the variables of
    the test. `per_rank` (unit): the test depends on the process's rank in
    a distributed job (`rank == 0`, `args.local_rank`, `dist.get_rank()`,
    `is_main_process()`, `os.environ["RANK"]`): what runs under it runs on
    some ranks only (lint detc-rank-conditional-update). `none_param`
    (string) and `if_none` (`"then"` or `"else"`): the test is whether that
    parameter of the enclosing function is None (`if optimizer:`, `if p is
    None:`), and the branch that runs when it is; an expansion whose call
    gives it None (`none_params`) takes that branch only. `str_param`,
    `str_value` and `if_equal` (`"then"` or `"else"`): the test compares
    that parameter with a string (`if phase == 'train':`), and the branch
    that runs when they are equal; an expansion whose call gives it a
    string (`str_params`) takes the branch that string selects.

    Example:

    ```mlir
    detc.if uses ["epoch"] {
      detc.hint
    } else {
      detc.stmt "pass"
    }
    ```
  }];
  let arguments = varArgs;
  let regions = (region SizedRegion<1>:$thenRegion, AnyRegion:$elseRegion);
  let assemblyFormat = varFormat # " attr-dict-with-keyword $thenRegion (`else` $elseRegion^)?";
}

def Detc_TryOp : Detc_StmtOp<"try", RegionTraits> {
  let summary = "try / except / else / finally";
  let description = [{
    The body may transfer control to any handler. Each handler region starts
    with a `detc.stmt "except"` naming the exception type's variables and the
    bound name.

    Example:

    ```mlir
    detc.try {
      detc.stmt "expr" uses ["f"]
    } except {
      detc.stmt "except" defs ["e"] uses ["OSError"]
    } finally {
      detc.stmt "expr" uses ["f"]
    }
    ```
  }];
  let arguments = varArgs;
  let regions = (region SizedRegion<1>:$body, AnyRegion:$orelse,
                        AnyRegion:$finalbody,
                        VariadicRegion<SizedRegion<1>>:$handlers);
  let assemblyFormat = varFormat # " attr-dict-with-keyword $body " #
                       "(`except` $handlers^)? (`else` $orelse^)? " #
                       "(`finally` $finalbody^)?";
}

def Detc_WithOp : Detc_StmtOp<"with", RegionTraits> {
  let summary = "A with statement";
  let description = [{
    `with ctx as target:` — `uses` are the context expressions' variables,
    `defs` the `as` targets. `managers` lists the resolved names of known
    context managers (`torch.no_grad`, `torch.enable_grad`, ...).

    Example:

    ```mlir
    detc.with managers ["torch.no_grad"] {
      detc.forward "model" defs ["out"] uses ["model", "x"]
    }
    ```
  }];
  let arguments = !con((ins Detc_VarList:$managers), varArgs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "(`managers` $managers^)? " # varFormat #
                       " attr-dict-with-keyword $body";
}

def Detc_CallOp : Detc_StmtOp<"call",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Call a function defined in the analysed files";
  let description = [{
    A call whose callee is a `detc.func` (`helper(x)`, `self.step(b)` on a
    known class, `Net.forward` through a build). `bind` maps each parameter
    of the callee to the variable holding the argument passed to it (so a
    generator passed as an argument is the same generator inside the
    callee); `defs` receives the return value. `none_params` (string array,
    optional): the parameters the call gives None — a literal `None`, or a
    parameter left to its default `None` — where the call has no `*xs` or
    `**d`; the statement graph takes one branch of a `detc.if` testing one
    of them (`none_param`). `str_params` (dictionary, optional): the same
    for parameters given a string (a literal, or the default), with it
    (`str_param`).

    Example:

    ```mlir
    detc.call @augment bind {img = "x", rng = "g"} defs ["x"] uses ["x", "g"]
    ```
  }];
  let arguments = !con((ins SymbolRefAttr:$callee,
                            OptionalAttr<DictionaryAttr>:$bind), varArgs);
  let assemblyFormat = "$callee (`bind` $bind^)? " # varFormat # " attr-dict";
}

def Detc_StmtOp : Detc_StmtOp<"stmt"> {
  let summary = "Any other statement";
  let description = [{
    Assignments, expression statements, imports, `del`, `assert`, `global`
    and every call the API model does not know (opaque: it reads its
    arguments, defines its targets, and updates the receiver of a method
    call). `kind` is the Python statement kind (`assign`, `augassign`,
    `annassign`, `expr`, `import`, `def`, `class`, `del`, `assert`, `pass`,
    `except`, ...). `copy` marks a plain `a = b` between names, through which
    generator aliases flow. `symbol` is the function or class a `def` or
    `class` statement binds. `restores` lists what the value stored in the
    variable this statement defines or updates restores when it is saved in
    a checkpoint and loaded back: `state = {"model": model.state_dict(),
    "best": best}` restores `model` and `best`, so a checkpoint that saves
    `state` (also in a helper that receives it) saves them. `module_calls`
    (on any op of a simple statement) lists the receivers `X` of calls
    `X.module(...)` / `X.module.forward(...)` in the statement: a model
    called around its DistributedDataParallel wrapper (lint
    detc-ddp-module-forward).

    Example:

    ```mlir
    detc.stmt "assign" copy defs ["g2"] uses ["g1"]
    detc.stmt "assign" restores ["model", "best"] defs ["state"] uses ["model", "best"]
    ```
  }];
  let arguments = !con((ins StrAttr:$kind, UnitAttr:$copy,
                            OptionalAttr<SymbolRefAttr>:$symbol,
                            OptionalAttr<StrArrayAttr>:$restores), varArgs);
  let assemblyFormat = "$kind (`copy` $copy^)? (`symbol` $symbol^)? (`restores` $restores^)? " # varFormat # " attr-dict";
  let hasVerifier = 1;
}

class Detc_JumpOp<string mnemonic, string what> : Detc_StmtOp<mnemonic> {
  let summary = "`" # what # "`";
  let arguments = varArgs;
  let assemblyFormat = varFormat # " attr-dict";
  let hasVerifier = 1;
}

def Detc_ReturnOp : Detc_JumpOp<"return", "return"> {
  let description = [{
    Leaves the enclosing function, returning the variables in `uses`. It may
    appear anywhere in a region (control flow leaves the nested regions).

    Example: `detc.return uses ["loss"]`
  }];
}

def Detc_BreakOp : Detc_JumpOp<"break", "break"> {
  let description = [{
    Leaves the innermost enclosing `detc.for`/`detc.while` of the same
    function, skipping its `else` region.

    Example: `detc.break`
  }];
}

def Detc_ContinueOp : Detc_JumpOp<"continue", "continue"> {
  let description = [{
    Goes to the next iteration of the innermost enclosing loop of the same
    function.

    Example: `detc.continue`
  }];
}

def Detc_RaiseOp : Detc_JumpOp<"raise", "raise"> {
  let description = [{
    Raises the exception in `uses` (or re-raises): control goes to a handler
    of an enclosing `detc.try` or leaves the function.

    Example: `detc.raise uses ["ValueError"]`
  }];
}

#endif // DETC_IR_DETCOPS_TD

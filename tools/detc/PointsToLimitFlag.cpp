//===- PointsToLimitFlag.cpp - --points-to-limit: the model's budget ------===//

#include "PointsToLimitFlag.h"

using namespace llvm;

detc::tool::PointsToLimitFlag::PointsToLimitFlag(cl::SubCommand &sub)
    : members("points-to-limit",
              cl::desc("Objects the points-to analysis's sets may hold in "
                       "all before it stops and the program is refused "
                       "(default 20000000; ~15 bytes each)"),
              cl::value_desc("N"), cl::init(0), cl::sub(sub)) {}

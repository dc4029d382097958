#include "cliverbs.h"

namespace kp::cli {

const std::vector<Verb>& extraVerbs()
{
    static const std::vector<Verb> verbs = {};
    return verbs;
}

} // namespace kp::cli

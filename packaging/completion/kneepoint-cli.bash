# bash completion for kneepoint-cli                                  -*- shell-script -*-

_kneepoint_cli()
{
    local cur prev words cword
    _init_completion || return

    local commands="run sweep analyze probe validate demo"
    local common="--help --help-all --version --profile --base-url --endpoint --backend --model
        --served-model-name --api-key --dataset-name --dataset-path --num-prompts --random-input-len
        --random-output-len --random-range-ratio --request-rate --concurrency --burstiness
        --max-concurrency --seed --ignore-eos --warmup --cooldown --step-duration
        --percentile-metrics --metric-percentiles --goodput --save-result --save-detailed
        --result-dir --result-filename --label --out --no-preflight --workers --quiet --plan --range
        --refine --tolerance --repeats --no-early-stop --stop-error-rate --slo --peak --redundancy
        --knee-metric --json"

    # The command is the first word that is not an option.
    local i command=""
    for ((i = 1; i < cword; i++)); do
        if [[ ${words[i]} != -* ]]; then
            command=${words[i]}
            break
        fi
    done

    case $prev in
        --profile | --dataset-path)
            _filedir '@(json|toml|jsonl)'
            return
            ;;
        --out | --result-dir)
            _filedir -d
            return
            ;;
        --backend)
            COMPREPLY=($(compgen -W "openai openai-chat vllm" -- "$cur"))
            return
            ;;
        --dataset-name)
            COMPREPLY=($(compgen -W "random sharegpt jsonl" -- "$cur"))
            return
            ;;
        --plan)
            COMPREPLY=($(compgen -W "list linear geometric auto" -- "$cur"))
            return
            ;;
        --knee-metric)
            COMPREPLY=($(compgen -W "ttft tpot itl e2el" -- "$cur"))
            return
            ;;
        --preset)
            COMPREPLY=($(compgen -W "small default large long-context" -- "$cur"))
            return
            ;;
        --base-url | --endpoint | --model | --served-model-name | --api-key | --num-prompts | \
            --random-input-len | --random-output-len | --random-range-ratio | --request-rate | \
            --concurrency | --burstiness | --max-concurrency | --seed | --warmup | --cooldown | \
            --step-duration | --percentile-metrics | --metric-percentiles | --goodput | \
            --result-filename | --label | --workers | --range | --tolerance | --repeats | \
            --stop-error-rate | --slo | --peak | --redundancy | --time-scale)
            return
            ;;
    esac

    if [[ -z $command ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--help --help-all --version" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        fi
        return
    fi

    local opts=$common
    [[ $command == demo ]] && opts+=" --time-scale --preset"

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [[ $command == analyze ]]; then
        _filedir '@(json|jsonl)'
    fi
} &&
    complete -F _kneepoint_cli kneepoint-cli

# ex: filetype=sh

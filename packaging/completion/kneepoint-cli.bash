# bash completion for kneepoint-cli                                  -*- shell-script -*-

_kneepoint_cli()
{
    local cur prev words cword
    _init_completion || return

    local commands="run sweep analyze probe validate demo export merge runs import compare targets"
    local common="--help --help-all --version --profile --target --base-url --endpoint --backend --model
        --served-model-name --api-key --dataset-name --dataset-path --num-prompts --random-input-len
        --random-output-len --random-range-ratio --request-rate --concurrency --burstiness
        --max-concurrency --seed --ignore-eos --warmup --cooldown --step-duration
        --percentile-metrics --metric-percentiles --goodput --save-result --save-detailed
        --result-dir --result-filename --label --out --no-preflight --yes --confirm-above --allow-insecure-key --allow-high-load --workers --transport --quiet --plan --range
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
            if [[ $command == export || $command == compare ]]; then _filedir; else _filedir -d; fi
            return
            ;;
        --backend)
            COMPREPLY=($(compgen -W "openai openai-chat vllm" -- "$cur"))
            return
            ;;
        --dataset-name)
            COMPREPLY=($(compgen -W "random sharegpt jsonl replay shared-prefix" -- "$cur"))
            return
            ;;
        --plan)
            COMPREPLY=($(compgen -W "list linear geometric auto" -- "$cur"))
            return
            ;;
        --knee-metric | --metric)
            if [[ $command == compare ]]; then
                COMPREPLY=($(compgen -W "ttft tpot itl e2el throughput output_throughput" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "ttft tpot itl e2el" -- "$cur"))
            fi
            return
            ;;
        --format)
            if [[ $command == import ]]; then
                COMPREPLY=($(compgen -W "auto vllm sglang guidellm" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "png svg pdf html md csv json" -- "$cur"))
            fi
            return
            ;;
        --chart)
            COMPREPLY=($(compgen -W "latency throughput" -- "$cur"))
            return
            ;;
        --data-dir)
            _filedir -d
            return
            ;;
        --preset)
            COMPREPLY=($(compgen -W "small default large long-context" -- "$cur"))
            return
            ;;
        --transport)
            COMPREPLY=($(compgen -W "auto socket qnam" -- "$cur"))
            return
            ;;
        --base-url | --endpoint | --model | --served-model-name | --api-key | --num-prompts | \
            --random-input-len | --random-output-len | --random-range-ratio | --request-rate | \
            --concurrency | --burstiness | --max-concurrency | --seed | --warmup | --cooldown | \
            --step-duration | --percentile-metrics | --metric-percentiles | --goodput | \
            --result-filename | --label | --workers | --range | --tolerance | --repeats | \
            --stop-error-rate | --slo | --peak | --redundancy | --time-scale | --percentile | --scale | --size | \
            --shard | --start-at | --step-interval | --name | --baseline)
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
    [[ $command == run || $command == sweep ]] && opts+=" --shard --start-at --step-interval"
    [[ $command == run || $command == sweep || $command == demo ]] && opts+=" --data-dir"
    [[ $command == runs ]] && opts="--help --data-dir --json"
    [[ $command == import ]] && opts="--help --format --name --data-dir"
    [[ $command == compare ]] && opts="--help --baseline --metric --percentile --json --out --data-dir"
    [[ $command == merge ]] && opts="--help --out --data-dir --quiet"
    [[ $command == targets ]] && opts="--help --targets-file --base-url --model --backend --endpoint
        --served-model-name --api-key-env --api-key-keychain --header --replace --json"
    [[ $command == export ]] && opts="--help --out --format --report --chart --metric --percentile --log --scale
        --size --data-dir --no-records"

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [[ $command == analyze ]]; then
        _filedir '@(json|jsonl)'
    elif [[ $command == merge || $command == compare ]]; then
        _filedir -d
    elif [[ $command == targets && $COMP_CWORD -eq 2 ]]; then
        COMPREPLY=($(compgen -W "add list show remove" -- "$cur"))
    elif [[ $command == import ]]; then
        _filedir '@(json|jsonl)'
    fi
} &&
    complete -F _kneepoint_cli kneepoint-cli

# ex: filetype=sh

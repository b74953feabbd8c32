import Foundation

/// The scripts `movies completions bash|zsh|fish` prints, written from the options and commands tables.
enum Completions {
    static func script(for shell: Options.Shell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    // MARK: bash

    static var bash: String {
        let valued = OptionSpec.visible.filter { $0.placeholder != nil }
        let valueCases = valued.map { spec -> String in
            let action = switch spec.completion {
            case .values(let values): "COMPREPLY=($(compgen -W \(shellQuoted(values.joined(separator: " "))) -- \"$cur\"))"
            case .directories: "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\"))"
            case .none: ":"
            }
            return "        \(spec.name)) \(action); return 0 ;;"
        }.joined(separator: "\n")
        let valuedNames = valued.map(\.name).joined(separator: "|")
        let allNames = OptionSpec.visible.flatMap { [$0.short, $0.name].compactMap { $0 } }.joined(separator: " ")
        let commandValues = CommandSpec.all.filter { !$0.values.isEmpty }.map {
            "        \($0.name)) COMPREPLY=($(compgen -W \(shellQuoted($0.values.joined(separator: " "))) -- \"$cur\")) ;;"
        }.joined(separator: "\n")
        return """
        # bash completion for movies: written by `movies completions bash`
        _movies() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev= at=$((COMP_CWORD - 1)) i word command=
            # COMP_WORDBREAKS splits --type=mo into --type, =, mo
            [[ $cur == = ]] && cur=
            [[ ${COMP_WORDS[at]} == = ]] && at=$((at - 1))
            [[ ${COMP_WORDS[COMP_CWORD]} == = ]] && at=$((COMP_CWORD - 1))
            (( at > 0 )) && prev=${COMP_WORDS[at]}
            COMPREPLY=()
            case $prev in
        \(valueCases)
            esac
            for (( i = 1; i < COMP_CWORD; i++ )); do
                word=${COMP_WORDS[i]}
                case $word in
                    \(valuedNames)) [[ ${COMP_WORDS[i+1]} == = ]] && i=$((i + 1)); i=$((i + 1)) ;;
                    -*|=) ;;
                    *) command=$word; break ;;
                esac
            done
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W \(shellQuoted(allNames)) -- "$cur"))
                return 0
            fi
            case $command in
                '') COMPREPLY=($(compgen -W \(shellQuoted(CommandSpec.all.map(\.name).joined(separator: " "))) -- "$cur")) ;;
        \(commandValues)
            esac
            return 0
        }
        complete -F _movies movies

        """
    }

    // MARK: zsh

    static var zsh: String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "[", with: "\\[")
                .replacingOccurrences(of: "]", with: "\\]").replacingOccurrences(of: ":", with: "\\:")
                .replacingOccurrences(of: "'", with: "'\\''")
        }
        let specs = OptionSpec.visible.map { spec -> String in
            let help = "[\(escaped(spec.help))]"
            guard let placeholder = spec.placeholder else {
                // `--json=title,year`: an optional value, in the same word only.
                let name = spec.name + (spec.inlineValue.map { "=-\(help)::\($0): " } ?? help)
                guard let short = spec.short else { return "'\(name)'" }
                // `--help` and `--version` exclude every other word.
                return (spec.scope == .instead ? "'(- *)'" : "") + "{\(short),\(spec.name)}'\(help)'"
            }
            let action = switch spec.completion {
            case .values(let values): "(\(values.joined(separator: " ")))"
            case .directories: "_directories"
            case .none: " "
            }
            return "'\(spec.name)=\(help):\(placeholder):\(action)'"
        }.map { "        \($0) \\" }.joined(separator: "\n")
        let commands = CommandSpec.all.map { "'\($0.name):\(escaped($0.help))'" }.joined(separator: " ")
        let commandValues = CommandSpec.all.filter { !$0.values.isEmpty }.map {
            "            \($0.name)) (( CURRENT == 3 )) && _values \($0.arguments.lowercased()) \($0.values.joined(separator: " ")) ;;"
        }.joined(separator: "\n")
        return """
        #compdef movies
        # zsh completion for movies: written by `movies completions zsh`
        _movies() {
            local state line curcontext=$curcontext
            typeset -A opt_args
            _arguments -s \\
        \(specs)
                '1:command:->command' \\
                '*:argument:->argument' && return 0
            case $state in
            command)
                local -a commands=(\(commands))
                _describe -t commands command commands ;;
            argument)
                case $line[1] in
        \(commandValues)
                esac ;;
            esac
        }
        if [[ $funcstack[1] == _movies ]]; then
            _movies "$@"
        else
            compdef _movies movies
        fi

        """
    }

    // MARK: fish

    static var fish: String {
        func quoted(_ text: String) -> String {
            "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        }
        var lines = ["# fish completion for movies: written by `movies completions fish`", "complete -c movies -f"]
        for spec in OptionSpec.visible {
            var line = "complete -c movies"
            if let short = spec.short { line += " -s \(short.dropFirst())" }
            line += " -l \(spec.name.dropFirst(2))"
            if spec.placeholder != nil {
                line += " -x"
                switch spec.completion {
                case .values(let values): line += " -a \(quoted(values.joined(separator: " ")))"
                case .directories: line += " -a '(__fish_complete_directories)'"
                case .none: break
                }
            }
            lines.append(line + " -d \(quoted(spec.help))")
        }
        let names = CommandSpec.all.map(\.name).joined(separator: " ")
        for command in CommandSpec.all {
            lines.append("complete -c movies -n 'not __fish_seen_subcommand_from \(names)' -a \(command.name) -d \(quoted(command.help))")
            if !command.values.isEmpty {
                lines.append("complete -c movies -n '__fish_seen_subcommand_from \(command.name)' -a \(quoted(command.values.joined(separator: " ")))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` in single quotes for a POSIX shell.
    static func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}

# zsh -f zsh_complete.zsh FOLDER LINE...: for each LINE, what an interactive zsh with FOLDER (holding
# _imgcache) on $fpath makes of it after a TAB: the command line, printed on a line of its own.
# The shell runs in a zpty; a key bound to a widget prints the line between two markers, and the
# reader waits for them, so nothing waits on time.
zmodload zsh/zpty
folder=$1
zpty shell zsh -f -i
zpty -w shell "PS1='> '; fpath=($folder \$fpath); autoload -U compinit; compinit -u -D; imgcache() { }"
# The markers are written as escapes so that the echo of this line does not hold them.
zpty -w shell 'show() { zle -I; print -r -- $'"'"'\x40\x40'"'"'"$BUFFER"$'"'"'\x40\x40'"'"'; BUFFER=; }; zle -N show; bindkey "^X" show'
for line in "$@[2,-1]"; do
  zpty -w -n shell "$line"$'\t'$'\C-x'
  zpty -r shell out '*@@*@@*'
  print -r -- "${${out#*@@}%%@@*}"
done
zpty -d shell

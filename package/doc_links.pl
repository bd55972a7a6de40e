#!/usr/bin/env perl
# The relative links of Markdown files in the SDK package (//package:backplane_sdk). Two commands:
#
#   doc_links.pl rewrite MAP REPO_PATH PACKAGE_PATH < in.md > out.md
#     A file of the repository (REPO_PATH, e.g. docs/abi.md) as it goes to PACKAGE_PATH in the
#     package (share/doc/backplane/abi.md): each relative link is resolved in the repository and
#     pointed at that file's place in the package. MAP has a line "REPO_PATH<TAB>PACKAGE_PATH" per
#     shipped file. A link to a file the package does not ship becomes its text plus where it is in
#     the repository ("building.md in the Backplane repository"), so that no link in the package
#     leads nowhere.
#
#   doc_links.pl check ROOT FILE.md...
#     Checks that every relative link of each FILE.md names a file inside ROOT that exists, and,
#     for a link to a Markdown file with #anchor, a heading of that file with this anchor (GitHub's
#     rule). Prints one line per broken link, then how many links it checked; exits 1 if one is
#     broken.
#
# Links are [text](target) outside fenced code blocks; the text may span lines.
use strict;
use warnings;
use Cwd qw(realpath);
use File::Basename qw(dirname basename);
use File::Spec;

# Calls $visit->($text, $target) for each link of $markdown and returns the Markdown with each
# link replaced by what $visit returns.
sub map_links {
  my ($markdown, $visit) = @_;
  my @parts = split /^(\s*```.*\n)/m, $markdown;
  my $fenced = 0;
  for my $part (@parts) {
    if ($part =~ /^\s*```/) {
      $fenced = !$fenced;
    } elsif (!$fenced) {
      $part =~ s{\[([^\]]*)\]\(([^()\s]+)\)}{$visit->($1, $2)}ge;
    }
  }
  return join '', @parts;
}

sub is_relative { return $_[0] !~ m{^(?:[a-z][a-z0-9+.-]*:|#|/)}i }

# "a/b/../c" -> "a/c"; undef when it climbs above its start.
sub normalize {
  my @out;
  for my $part (split m{/}, $_[0]) {
    next if $part eq '' || $part eq '.';
    if ($part eq '..') {
      return undef unless @out;
      pop @out;
    } else {
      push @out, $part;
    }
  }
  return join '/', @out;
}

sub slurp {
  my ($path) = @_;
  open my $in, '<', $path or die "doc_links.pl: cannot read $path: $!\n";
  local $/;
  return <$in>;
}

sub rewrite {
  my ($map_file, $repo_path, $package_path) = @_;
  my %package_of;
  for my $line (split /\n/, slurp($map_file)) {
    my ($repo, $package) = split /\t/, $line;
    $package_of{$repo} = $package;
  }
  local $/;
  my $markdown = <STDIN>;
  print map_links(
    $markdown,
    sub {
      my ($text, $target) = @_;
      return "[$text]($target)" unless is_relative($target);
      my ($path, $anchor) = $target =~ /^([^#]*)(#.*)?$/;
      $anchor //= '';
      my $resolved = normalize(dirname($repo_path) . "/$path");
      die "doc_links.pl: $repo_path: the link $target leaves the repository\n"
        unless defined $resolved;
      if (exists $package_of{$resolved}) {
        my $relative = File::Spec->abs2rel($package_of{$resolved}, dirname($package_path));
        return "[$text]($relative$anchor)";
      }
      (my $plain = $text) =~ s/`//g;
      return "$text in the Backplane repository"
        if $plain eq $resolved || $plain eq basename($resolved);
      return "$text (`$resolved` in the Backplane repository)";
    });
}

# GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens.
sub anchor_of {
  my ($heading) = @_;
  $heading = lc $heading;
  $heading =~ s/[^\w\- ]//g;
  $heading =~ s/ /-/g;
  return $heading;
}

sub anchors {
  my ($path) = @_;
  my %anchors;
  my $fenced = 0;
  for my $line (split /\n/, slurp($path)) {
    $fenced = !$fenced if $line =~ /^\s*```/;
    $anchors{anchor_of($1)} = 1 if !$fenced && $line =~ /^#+\s+(.*?)\s*$/;
  }
  return \%anchors;
}

sub check {
  my ($root, @files) = @_;
  $root = realpath($root);
  my $broken = 0;
  my $checked = 0;
  for my $file (@files) {
    map_links(
      slurp($file),
      sub {
        my ($text, $target) = @_;
        return '' unless is_relative($target);
        ++$checked;
        my ($path, $anchor) = $target =~ /^([^#]*)(?:#(.*))?$/;
        my $resolved = $path eq '' ? realpath($file) : realpath(dirname($file) . "/$path");
        my $problem;
        if (!defined $resolved || !-e $resolved) {
          $problem = 'no such file';
        } elsif (index("$resolved/", "$root/") != 0) {
          $problem = "outside $root";
        } elsif (defined $anchor && $resolved =~ /\.md$/ && !anchors($resolved)->{$anchor}) {
          $problem = "no heading with the anchor #$anchor";
        }
        if ($problem) {
          print "$file: [$text]($target): $problem\n";
          $broken = 1;
        }
        return '';
      });
  }
  print "checked $checked relative links in " . scalar(@files) . " files\n";
  exit $broken;
}

my $command = shift @ARGV // '';
if ($command eq 'rewrite' && @ARGV == 3) {
  rewrite(@ARGV);
} elsif ($command eq 'check' && @ARGV >= 1) {
  check(@ARGV);
} else {
  die "usage: doc_links.pl rewrite MAP REPO_PATH PACKAGE_PATH < in.md > out.md\n"
    . "       doc_links.pl check ROOT FILE.md...\n";
}
